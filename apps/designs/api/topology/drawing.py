"""The schematic (schematic.py's pictures) as one standalone SVG document for the page, slides and documents.

Rules:
- Every text is escaped (the design's name is user text) and at least 12 px at 100 %; the
  document carries the design's name and version, and a legend of rails, planes and devices.
- Colours are the topology page's: RAIL_COLOURS and PLANE_COLOURS are handed to its script too.
- Plain SVG 1.1 shapes and text (no script, no external reference), so browsers, office suites
  and converters read it alike.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .schematic import Overview, ScaleUnitPicture

RAIL_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"]
PLANE_COLOURS = ["#1d4ed8", "#b45309", "#047857", "#be123c", "#6d28d9", "#0e7490", "#a16207", "#4d7c0f"]
ROLE_FILL = {"server": "#e7ebf0", "leaf": "#dbeafe", "spine": "#ede9fe", "core": "#fde2e2"}
FONT = "Noto Sans, Noto Sans CJK SC, Source Han Sans SC, Microsoft YaHei, sans-serif"
SERVERS_DRAWN = 32
PANELS_PER_ROW = 4


def rail_colour(rail: int | None) -> str:
    return RAIL_COLOURS[(rail or 0) % len(RAIL_COLOURS)]


def plane_colour(plane: int | None) -> str:
    return PLANE_COLOURS[(plane or 0) % len(PLANE_COLOURS)]


def _n(value: int) -> str:
    return f"{value:,}"


class Canvas:
    """SVG elements in drawing order, with the extent they cover."""

    def __init__(self):
        self.parts: list[str] = []
        self.width = 0.0
        self.height = 0.0

    def _grow(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def rect(self, x, y, w, h, *, fill="#ffffff", stroke="#8796a8", stroke_width=1, rx=6, cls="") -> None:
        klass = f' class="{cls}"' if cls else ""
        self.parts.append(f'<rect{klass} x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" '
                          f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>')
        self._grow(x + w, y + h)

    def line(self, x1, y1, x2, y2, *, stroke="#8b98a9", width=1.5) -> None:
        self.parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                          f'stroke-width="{width}"/>')

    def text(self, x, y, content: str, *, size=12, weight="normal", anchor="middle", fill="#1d2430",
             cls="label", halo=False) -> None:
        extra = ' stroke="#ffffff" stroke-width="3" paint-order="stroke"' if halo else ""
        self.parts.append(f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
                          f'text-anchor="{anchor}" fill="{fill}"{extra}>{escape(content)}</text>')
        self._grow(x + (len(content) * size * 0.6 if anchor == "start" else 0), y + 4)

    def box(self, x, y, w, h, lines: list[str], *, role: str, stroke="#8796a8", stroke_width=1, cls="node") -> None:
        self.parts.append(f'<g class="{cls}">')
        self.rect(x, y, w, h, fill=ROLE_FILL.get(role, "#f1f5f9"), stroke=stroke, stroke_width=stroke_width)
        top = y + h / 2 - (len(lines) - 1) * 8 + 4
        for i, content in enumerate(lines):
            self.text(x + w / 2, top + i * 16, content, size=13 if i == 0 else 12, weight="bold" if i == 0 else "normal")
        self.parts.append("</g>")

    def count(self, x, y, n: int) -> None:
        self.text(x, y, "×" + _n(n), size=12, fill="#334155", cls="count", halo=True)

    def open_group(self, cls: str, **attributes) -> None:
        extra = "".join(f' {key.replace("_", "-")}="{escape(str(value))}"' for key, value in attributes.items())
        self.parts.append(f'<g class="{cls}"{extra}>')

    def close_group(self) -> None:
        self.parts.append("</g>")


def _scale_unit(canvas: Canvas, picture: ScaleUnitPicture, top: float, planes: int) -> float:
    """SU 0: spine groups, leaves by plane and rail, the servers; returns the y below it."""
    canvas.open_group("schematic-su")
    title = _("One scale unit in full (SU %(su)s)") % {"su": picture.su}
    canvas.text(24, top + 18, title, size=15, weight="bold", anchor="start")
    leaf_w, leaf_h, gap, plane_gap = 128, 44, 12, 36
    y_spine, y_leaf, y_server = top + 50, top + 190, top + 350
    x = 24.0
    leaf_x: list[float] = []
    plane_span: dict[int, list[float]] = {}
    for leaf in picture.leaves:
        if leaf_x and leaf.plane != picture.leaves[len(leaf_x) - 1].plane:
            x += plane_gap - gap
        leaf_x.append(x)
        plane_span.setdefault(leaf.plane, [x, x + leaf_w])[1] = x + leaf_w
        x += leaf_w + gap
    width = max(x - gap, 24 + SERVERS_DRAWN * 18 + 260)
    # Spine groups above their plane's leaves.
    groups_by_plane: dict[int, list] = {}
    for group in picture.spine_groups:
        groups_by_plane.setdefault(group.plane, []).append(group)
    group_centre: dict[tuple, float] = {}
    for plane, groups in groups_by_plane.items():
        x1, x2 = plane_span.get(plane, [24, width])
        slot = (x2 - x1) / len(groups)
        for i, group in enumerate(groups):
            cx = x1 + slot * (i + 0.5)
            group_centre[(group.plane, group.pod)] = cx
    for i, leaf in enumerate(picture.leaves):
        cx = leaf_x[i] + leaf_w / 2
        for group in groups_by_plane.get(leaf.plane, []):
            canvas.line(cx, y_leaf, group_centre[(group.plane, group.pod)], y_spine + 48,
                        stroke=plane_colour(leaf.plane) if planes > 1 else "#5b6b82", width=1.2)
    for plane, groups in groups_by_plane.items():
        for group in groups:
            cx = group_centre[(group.plane, group.pod)]
            name = (_("Pod %(pod)s spines") % {"pod": group.pod} if group.pod is not None
                    else _("Plane %(plane)s spines") % {"plane": group.plane})
            w = 170
            canvas.box(cx - w / 2, y_spine, w, 48, [name, _count(group.spines, "spine")], role="spine",
                       stroke=plane_colour(plane) if planes > 1 else "#8796a8", stroke_width=2 if planes > 1 else 1)
            canvas.count(cx, y_spine + 66, group.links)
    # Leaves, coloured by rail, and their server links.
    server_top = y_server
    server_x1 = 24
    server_w = min(picture.servers, SERVERS_DRAWN) * 18
    for i, leaf in enumerate(picture.leaves):
        lx = leaf_x[i]
        cx = lx + leaf_w / 2
        target = server_x1 + server_w * (i + 0.5) / max(1, len(picture.leaves))
        canvas.line(cx, y_leaf + leaf_h, target, server_top, stroke=rail_colour(leaf.rail), width=2.5)
        rail = _("rail %(rail)s") % {"rail": leaf.rail} if leaf.rail is not None else ""
        canvas.box(lx, y_leaf, leaf_w, leaf_h, [leaf.name, rail], role="leaf", stroke=rail_colour(leaf.rail),
                   stroke_width=3)
        canvas.count(cx + (target - cx) * 0.35, y_leaf + leaf_h + (server_top - y_leaf - leaf_h) * 0.35 + 4,
                     leaf.downlinks)
    if planes > 1:
        for plane, (x1, x2) in plane_span.items():
            canvas.text((x1 + x2) / 2, y_leaf - 10, _("Plane %(plane)s") % {"plane": plane}, size=12,
                        weight="bold", fill=plane_colour(plane), halo=True)
    # The servers, one slot each (at most SERVERS_DRAWN drawn).
    canvas.open_group("node")
    for i in range(min(picture.servers, SERVERS_DRAWN)):
        canvas.rect(server_x1 + i * 18, server_top, 14, 56, fill=ROLE_FILL["server"], rx=2)
    canvas.close_group()
    first, last = picture.server_names
    canvas.text(server_x1, server_top + 76, f"{first} … {last}", size=12, anchor="start")
    canvas.text(server_x1, server_top + 94, _("%(servers)s servers, %(ports)s backend ports each") % {
        "servers": _n(picture.servers), "ports": _n(picture.ports_per_server)}, size=12, anchor="start")
    # The multiplier for the rest of the fabric.
    mx = server_x1 + server_w + 40
    canvas.text(mx, server_top + 24, "× " + ngettext("%(n)s scale unit", "%(n)s scale units", picture.scale_units)
                % {"n": _n(picture.scale_units)}, size=16, weight="bold", anchor="start", cls="multiplier")
    if picture.pods:
        canvas.text(mx, server_top + 46, _("%(per_pod)s per pod, %(pods)s pods") % {
            "per_pod": _n(picture.sus_per_pod), "pods": _n(picture.pods)}, size=12, anchor="start")
    canvas.close_group()
    canvas._grow(width, 0)
    return server_top + 120


def _count(n: int, role: str) -> str:
    if role == "server":
        return ngettext("%(n)s server", "%(n)s servers", n) % {"n": _n(n)}
    if role == "leaf":
        return ngettext("%(n)s leaf", "%(n)s leaves", n) % {"n": _n(n)}
    if role == "spine":
        return ngettext("%(n)s spine", "%(n)s spines", n) % {"n": _n(n)}
    return ngettext("%(n)s core", "%(n)s cores", n) % {"n": _n(n)}


def _overview(canvas: Canvas, picture: Overview, top: float) -> float:
    """One panel per plane, side by side (PANELS_PER_ROW a row); returns the y below them."""
    canvas.text(24, top + 18, _("Pods, scale units, spines and cores") if picture.tiers == 3
                else _("Scale units and spines"), size=15, weight="bold", anchor="start")
    col_w, col_gap, pad = 132, 18, 16
    many = len(picture.panels) > 1
    three = picture.tiers == 3
    row_top = top + 36
    x = 24.0
    row_height = 0.0
    for index, panel in enumerate(picture.panels):
        if index and index % PANELS_PER_ROW == 0:
            x, row_top = 24.0, row_top + row_height + 24
        cols = max(1, len(panel.columns))
        width = 2 * pad + cols * col_w + (cols - 1) * col_gap
        height = 40 + (80 if three else 0) + 284
        colour = plane_colour(panel.plane) if many else "#8796a8"
        canvas.open_group("plane-panel", data_plane=panel.plane)
        canvas.rect(x, row_top, width, height, fill="#ffffff", stroke=colour, stroke_width=3 if many else 1, rx=10)
        canvas.text(x + pad, row_top + 24, _("Plane %(plane)s") % {"plane": panel.plane} if many else _("Fabric"),
                    size=14, weight="bold", anchor="start", fill=colour)
        y_top = row_top + 40
        col_x = [x + pad + i * (col_w + col_gap) for i in range(cols)]
        inner = width - 2 * pad
        if three:
            y_spine = y_top + 80
        else:
            y_spine = y_top
        y_leaf, y_server = y_spine + 110, y_spine + 220
        # Top tier: cores (3 tiers) or the plane's spines (2 tiers), one box across the panel.
        if three:
            for cx, col in zip(col_x, panel.columns):
                canvas.line(cx + col_w / 2, y_spine, x + pad + inner / 2, y_top + 48, stroke=colour if many else "#8a5a9e")
                canvas.count(cx + col_w / 2 + (x + pad + inner / 2 - cx - col_w / 2) * 0.3,
                             y_spine - (y_spine - y_top - 48) * 0.3, col.core_links)
            canvas.box(x + pad + inner / 2 - 90, y_top, 180, 48, [_("Cores"), _count(panel.cores, "core")], role="core",
                       stroke=colour)
        for cx, col in zip(col_x, panel.columns):
            mid = cx + col_w / 2
            if three:
                canvas.line(mid, y_spine + 48, mid, y_leaf, stroke=colour if many else "#5b6b82")
                canvas.count(mid, (y_spine + 48 + y_leaf) / 2 + 4, col.spine_links)
            else:
                canvas.line(mid, y_leaf, x + pad + inner / 2, y_spine + 48, stroke=colour if many else "#5b6b82")
                canvas.count(mid + (x + pad + inner / 2 - mid) * 0.3, y_leaf - (y_leaf - y_spine - 48) * 0.3,
                             col.spine_links)
            canvas.line(mid, y_leaf + 48, mid, y_server, stroke="#8b98a9")
            canvas.count(mid, (y_leaf + 48 + y_server) / 2 + 4, col.server_links)
        if not three:
            canvas.box(x + pad + inner / 2 - 90, y_spine, 180, 48, [_("Spines"), _count(panel.spines, "spine")],
                       role="spine", stroke=colour)
        for cx, col in zip(col_x, panel.columns):
            if col.more:
                head = (ngettext("%(n)s more pod", "%(n)s more pods", col.more) if three
                        else ngettext("%(n)s more scale unit", "%(n)s more scale units", col.more)) % {"n": _n(col.more)}
            else:
                head = (_("Pod %(pod)s") if three else _("SU %(su)s")) % {"pod": col.key, "su": col.key}
            if three:
                canvas.box(cx, y_spine, col_w, 48, [head, _count(col.spines, "spine")], role="spine", stroke=colour)
                sus = ngettext("%(n)s SU", "%(n)s SUs", col.sus) % {"n": _n(col.sus)}
                canvas.box(cx, y_leaf, col_w, 48, [_count(col.leaves, "leaf"), sus], role="leaf", stroke=colour)
            else:
                canvas.box(cx, y_leaf, col_w, 48, [head, _count(col.leaves, "leaf")], role="leaf", stroke=colour)
            canvas.box(cx, y_server, col_w, 48, [_count(col.servers, "server")], role="server")
        canvas.close_group()
        x += width + 24
        row_height = max(row_height, height)
    return row_top + row_height + 16


def _legend(canvas: Canvas, top: float, *, rails: int, planes: int, tiers: int) -> float:
    canvas.open_group("legend")
    x = 24.0

    def chip(colour: str, text: str) -> None:
        nonlocal x
        canvas.rect(x, top - 11, 14, 14, fill=colour, stroke="#8796a8", rx=2)
        canvas.text(x + 20, top, text, size=12, anchor="start")
        x += 32 + len(text) * 8

    canvas.text(x, top, _("Rails:"), size=12, weight="bold", anchor="start")
    x += 52
    for rail in range(rails):
        chip(rail_colour(rail), str(rail))
    if planes > 1:
        canvas.text(x, top, _("Planes:"), size=12, weight="bold", anchor="start")
        x += 60
        for plane in range(planes):
            chip(plane_colour(plane), str(plane))
    canvas.text(x, top, _("Devices:"), size=12, weight="bold", anchor="start")
    x += 70
    names = {"server": _("server"), "leaf": _("leaf"), "spine": _("spine"), "core": _("core")}
    for role in ("server", "leaf", "spine", "core"):
        if role == "core" and tiers < 3:
            continue
        chip(ROLE_FILL[role], names[role])
    canvas.close_group()
    return top + 16


def schematic_svg(*, title: str, subtitle: str, scale_unit: ScaleUnitPicture, overview: Overview,
                  rails: int, planes: int) -> str:
    """The whole schematic: title, the scale unit, the overview panels and the legend."""
    canvas = Canvas()
    canvas.text(24, 30, title, size=18, weight="bold", anchor="start", cls="title")
    canvas.text(24, 52, subtitle, size=12, anchor="start", fill="#475569", cls="subtitle")
    y = _scale_unit(canvas, scale_unit, 70, planes)
    y = _overview(canvas, overview, y + 10)
    y = _legend(canvas, y + 14, rails=rails, planes=planes, tiers=overview.tiers)
    width, height = round(canvas.width + 24), round(y + 16)
    body = "\n".join(canvas.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" class="fabric-schematic">\n'
        f"<title>{escape(title)}</title>\n"
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>\n{body}\n</svg>\n'
    )
