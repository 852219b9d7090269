"""The devices CSV (engine.cli plan --devices): one row per item of every rack, rack by rack, bottom to top.

Columns: device, role, network, rack, u, u_height, face, x_m, y_m, power_typical_w, power_max_w, sku, model,
zone. u is the lowest rack unit the item occupies; x_m, y_m the rack's floor position in metres
(engine.hall.model). Passive items (patch panels, cable managers, NVLink switch trays) are rows too. Text cells
go through safe_text.csv_text, so a name a user typed never reaches a spreadsheet as a formula.
"""
from __future__ import annotations

import csv
from pathlib import Path

from ..safe_text import csv_text
from .model import HallPlan

DEVICE_COLUMNS = ("device", "role", "network", "rack", "u", "u_height", "face", "x_m", "y_m", "power_typical_w",
                  "power_max_w", "sku", "model", "zone")


def device_rows(hall: HallPlan) -> list[tuple]:
    rows = []
    for rack in hall.racks:
        for item in rack.items:
            rows.append((csv_text(item.name), item.role, item.network, rack.name, item.u, item.u_height, item.face,
                         f"{rack.x_m:g}", f"{rack.y_m:g}", f"{item.power_typical_w:g}", f"{item.power_max_w:g}",
                         csv_text(item.sku), csv_text(item.model), rack.zone))
    return rows


def write_devices_csv(hall: HallPlan, path: Path | str) -> int:
    """Write the devices CSV; returns the number of rows (items) written."""
    rows = device_rows(hall)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(DEVICE_COLUMNS)
        writer.writerows(rows)
    return len(rows)
