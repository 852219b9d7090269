"""The data hall: every device of every network in a rack and a U position, racks on a grid of rows.

See engine.hall.model for the dataclasses (Hall, Rack, RackItem, HallPlan).
"""
from .model import U_M, Hall, HallPlan, Rack, RackItem

__all__ = ["U_M", "Hall", "HallPlan", "Rack", "RackItem"]
