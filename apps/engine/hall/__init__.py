"""The data hall: every device of every network in a rack and a U position, racks on a grid of rows.

Modules: model (Hall, Rack, RackItem, HallPlan), rules (what a rack holds: height, power budget, cooling),
grid (blocks of racks on free cells, reserved cells, zones), route (a link's cable length from positions),
build (the hall plan of a planned cluster, checked), structured (patch panels, cable managers, trunks),
devices_csv (the CLI's devices CSV), report (the hall's part of the JSON report).
"""
from .model import U_M, Hall, HallPlan, Rack, RackItem

__all__ = ["U_M", "Hall", "HallPlan", "Rack", "RackItem"]
