"""The schematic (schematic.py's pictures) as one standalone SVG document for the page, slides and documents.

Rules:
- Every text is escaped (the design's name is user text) and at least 12 px at 100 %; the
  document carries the design's name and version, and a legend of rails, planes and devices.
- Colours are the topology page's: RAIL_COLOURS and PLANE_COLOURS are handed to its script too.
- Plain SVG 1.1 shapes and text (no script, no external reference), so browsers, office suites
  and converters read it alike.
- Nothing is painted over a label: the document is drawn in layers, panels first, then every edge,
  then the boxes, then the link counts; a count sits on a white plate (an edge gap) at a place along its edge where it touches no box and no other count.
- Nothing overlaps at any plane count: boxes are as wide as their longest line (measured with
  text_width, which errs wide), a plane's span in the scale unit is as wide as its leaves or its
  spine groups, whichever is wider, and planes wrap into rows (each with the scale unit's servers
  under it) and panels into rows of at most MAX_WIDTH.
"""
from __future__ import annotations

import re
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
MAX_WIDTH = 1600  # the widest row of planes or panels, so a page or a slide keeps the text readable
MARGIN = 24
LAYERS = ("back", "edges", "nodes", "labels")
WIDE = re.compile(r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]")


def rail_colour(rail: int | None) -> str:
    return RAIL_COLOURS[(rail or 0) % len(RAIL_COLOURS)]


def plane_colour(plane: int | None) -> str:
    return PLANE_COLOURS[(plane or 0) % len(PLANE_COLOURS)]


def _n(value: int) -> str:
    return f"{value:,}"


def text_width(content: str, size: float, weight: str = "normal") -> float:
    """A line's width in px, erring wide: Latin glyphs of the fonts named are under 0.6 em, CJK 1 em."""
    units = sum(1.0 if WIDE.match(ch) else 0.6 for ch in content)
    return units * size * (1.06 if weight == "bold" else 1.0)


class Canvas:
    """SVG elements in layers (panels, edges, boxes, labels), with the extent they cover and the boxes
    and labels placed so far (for placing link counts clear of them)."""

    def __init__(self):
        self.layers: dict[str, list[str]] = {name: [] for name in LAYERS}
        self.width = 0.0
        self.height = 0.0
        self.occupied: list[tuple[float, float, float, float]] = []

    def _grow(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def raw(self, layer: str, markup: str) -> None:
        self.layers[layer].append(markup)

    def rect(self, x, y, w, h, *, fill="#ffffff", stroke="#8796a8", stroke_width=1, rx=6, cls="", layer="nodes",
             occupy=False) -> None:
        klass = f' class="{cls}"' if cls else ""
        self.layers[layer].append(
            f'<rect{klass} x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>')
        self._grow(x + w, y + h)
        if occupy:
            self.occupied.append((x, y, x + w, y + h))

    def line(self, x1, y1, x2, y2, *, stroke="#8b98a9", width=1.5) -> None:
        self.layers["edges"].append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="{width}"/>')

    def text(self, x, y, content: str, *, size=12, weight="normal", anchor="middle", fill="#1d2430",
             cls="label", plate=False, layer="nodes", occupy=False) -> None:
        w = text_width(content, size, weight)
        x1 = x - {"start": 0, "middle": w / 2, "end": w}[anchor]
        if plate:
            # An edge gap: a white plate under the text (a stroke halo would need paint-order, which some
            # converters ignore and then paint the text white).
            self.layers[layer].append(
                f'<rect class="plate" x="{x1 - 4:.1f}" y="{y - size * 0.95:.1f}" width="{w + 8:.1f}" '
                f'height="{size * 1.35:.1f}" rx="4" fill="#ffffff" fill-opacity="0.95" stroke="none"/>')
        self.layers[layer].append(
            f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{escape(content)}</text>')
        self._grow(x1 + w, y + size * 0.3)
        if occupy:
            self.occupied.append((x1, y - size * 0.9, x1 + w, y + size * 0.3))

    def box(self, x, y, w, h, lines: list[str], *, role: str, stroke="#8796a8", stroke_width=1, cls="node") -> None:
        self.layers["nodes"].append(f'<g class="{cls}">')
        self.rect(x, y, w, h, fill=ROLE_FILL.get(role, "#f1f5f9"), stroke=stroke, stroke_width=stroke_width,
                  occupy=True)
        top = y + h / 2 - (len(lines) - 1) * 8 + 4
        for i, content in enumerate(lines):
            self.text(x + w / 2, top + i * 16, content, size=13 if i == 0 else 12, weight="bold" if i == 0 else "normal")
        self.layers["nodes"].append("</g>")

    def count(self, x1, y1, x2, y2, n: int, *, along=(0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85)) -> None:
        """The link count of the edge (x1, y1)-(x2, y2): on a white plate at the first place along the
        edge where it touches no box and no count placed before."""
        content = "×" + _n(n)
        w, h = text_width(content, 12) + 8, 18
        spot = None
        for t in along:
            cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            plate = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if not any(_overlap(plate, other) for other in self.occupied):
                spot = (cx, cy, plate)
                break
        if spot is None:
            cx, cy = x1 + (x2 - x1) * along[0], y1 + (y2 - y1) * along[0]
            spot = (cx, cy, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        cx, cy, plate = spot
        self.occupied.append(plate)
        self.layers["labels"].append(
            f'<g class="count-label"><rect class="count-plate" x="{plate[0]:.1f}" y="{plate[1]:.1f}" '
            f'width="{w:.1f}" height="{h:.1f}" rx="4" fill="#ffffff" fill-opacity="0.95" stroke="none"/>')
        self.text(cx, cy + 4.5, content, size=12, fill="#334155", cls="count", layer="labels")
        self.layers["labels"].append("</g>")

    def svg_body(self) -> str:
        return "\n".join(part for name in LAYERS for part in self.layers[name])


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_width(lines: list[str], minimum: float) -> float:
    widest = max([text_width(line, 13 if i == 0 else 12, "bold" if i == 0 else "normal")
                  for i, line in enumerate(lines)] or [0])
    return max(minimum, widest + 20)


def _count(n: int, role: str) -> str:
    if role == "server":
        return ngettext("%(n)s server", "%(n)s servers", n) % {"n": _n(n)}
    if role == "leaf":
        return ngettext("%(n)s leaf", "%(n)s leaves", n) % {"n": _n(n)}
    if role == "spine":
        return ngettext("%(n)s spine", "%(n)s spines", n) % {"n": _n(n)}
    return ngettext("%(n)s core", "%(n)s cores", n) % {"n": _n(n)}


def _scale_unit(canvas: Canvas, picture: ScaleUnitPicture, top: float, planes: int) -> float:
    """SU 0: spine groups, leaves by plane and rail, the servers; returns the y below it.

    Each plane takes the width of its leaves or of its spine groups, whichever is wider; planes that
    do not fit in MAX_WIDTH wrap into another row, drawn with the scale unit's servers under it too."""
    canvas.raw("back", '<g class="schematic-su">')
    title = _("One scale unit in full (SU %(su)s)") % {"su": picture.su}
    canvas.text(MARGIN, top + 18, title, size=15, weight="bold", anchor="start", layer="back")
    gap, plane_gap, leaf_h, spine_h = 12, 36, 44, 48
    many = planes > 1
    # Per plane: its leaves (with their box widths) and its spine groups (with theirs).
    order: list[int] = []
    leaves_of: dict[int, list] = {}
    for leaf in picture.leaves:
        if leaf.plane not in leaves_of:
            order.append(leaf.plane)
        leaves_of.setdefault(leaf.plane, []).append(leaf)
    groups_of: dict[int, list] = {}
    for group in picture.spine_groups:
        groups_of.setdefault(group.plane, []).append(group)
        if group.plane not in leaves_of:
            order.append(group.plane)
            leaves_of[group.plane] = []

    def leaf_lines(leaf) -> list[str]:
        return [leaf.name, _("rail %(rail)s") % {"rail": leaf.rail} if leaf.rail is not None else ""]

    def group_lines(group) -> list[str]:
        name = (_("Pod %(pod)s spines") % {"pod": group.pod} if group.pod is not None
                else _("Plane %(plane)s spines") % {"plane": group.plane})
        return [name, _count(group.spines, "spine")]

    spans = {}
    for plane in order:
        leaf_w = [_box_width(leaf_lines(leaf), 128) for leaf in leaves_of[plane]]
        group_w = [_box_width(group_lines(group), 150) for group in groups_of.get(plane, [])]
        width = max(sum(leaf_w) + gap * max(0, len(leaf_w) - 1), sum(group_w) + gap * max(0, len(group_w) - 1), 1)
        spans[plane] = (width, leaf_w, group_w)
    server_strip = min(picture.servers, SERVERS_DRAWN) * 18
    caption_w = max(server_strip + 40 + text_width("× " + _n(picture.scale_units) + " scale units", 16, "bold"),
                    text_width(_("%(servers)s servers, %(ports)s backend ports each") % {
                        "servers": _n(picture.servers), "ports": _n(picture.ports_per_server)}, 12))
    rows: list[list[int]] = [[]]
    used = 0.0
    for plane in order:
        width = spans[plane][0]
        if rows[-1] and used + plane_gap + width > MAX_WIDTH - 2 * MARGIN:
            rows.append([])
            used = 0.0
        used += (plane_gap if rows[-1] else 0) + width
        rows[-1].append(plane)
    y = top + 36
    widest = caption_w + MARGIN
    for r, row in enumerate(rows):
        y_spine, y_leaf, y_server = y + 14, y + 154, y + 314
        row_width = sum(spans[p][0] for p in row) + plane_gap * max(0, len(row) - 1)
        x = float(MARGIN)
        server_x1 = MARGIN
        server_w = server_strip
        leaves_drawn = sum(len(leaves_of[p]) for p in row)
        leaf_index = 0
        for plane in row:
            width, leaf_w, group_w = spans[plane]
            stroke = plane_colour(plane) if many else "#8796a8"
            # Spine groups centred over the plane's span, leaves likewise.
            gx = x + (width - (sum(group_w) + gap * max(0, len(group_w) - 1))) / 2
            centres = []
            for group, w in zip(groups_of.get(plane, []), group_w):
                canvas.box(gx, y_spine, w, spine_h, group_lines(group), role="spine", stroke=stroke,
                           stroke_width=2 if many else 1)
                centres.append((gx + w / 2, group))
                gx += w + gap
            lx = x + (width - (sum(leaf_w) + gap * max(0, len(leaf_w) - 1))) / 2
            leaf_boxes = []
            for leaf, w in zip(leaves_of[plane], leaf_w):
                canvas.box(lx, y_leaf, w, leaf_h, [line for line in leaf_lines(leaf) if line], role="leaf",
                           stroke=rail_colour(leaf.rail), stroke_width=3)
                cx = lx + w / 2
                target = server_x1 + server_w * (leaf_index + 0.5) / max(1, leaves_drawn)
                leaf_boxes.append((cx, target, leaf))
                leaf_index += 1
                lx += w + gap
            for cx, _target, leaf in leaf_boxes:
                for gcx, _group in centres:
                    canvas.line(cx, y_leaf, gcx, y_spine + spine_h, stroke=stroke if many else "#5b6b82", width=1.2)
            for cx, target, leaf in leaf_boxes:
                canvas.line(cx, y_leaf + leaf_h, target, y_server, stroke=rail_colour(leaf.rail), width=2.5)
            if many:
                canvas.text(x + width / 2, y_leaf - 12, _("Plane %(plane)s") % {"plane": plane}, size=12,
                            weight="bold", fill=plane_colour(plane), plate=True, layer="labels", occupy=True)
            # Counts once every box of the plane is placed, so none lands on a box.
            for gcx, group in centres:
                canvas.count(gcx, y_spine + spine_h, gcx, y_leaf, group.links, along=(0.28, 0.2, 0.36, 0.44))
            for cx, target, leaf in leaf_boxes:
                canvas.count(cx, y_leaf + leaf_h, target, y_server, leaf.downlinks)
            x += width + plane_gap
        widest = max(widest, MARGIN + row_width)
        # The servers, one slot each (at most SERVERS_DRAWN drawn).
        canvas.raw("nodes", '<g class="node">')
        for i in range(min(picture.servers, SERVERS_DRAWN)):
            canvas.rect(server_x1 + i * 18, y_server, 14, 56, fill=ROLE_FILL["server"], rx=2, occupy=True)
        canvas.raw("nodes", "</g>")
        mx = server_x1 + server_w + 40
        if r == len(rows) - 1:
            first, last = picture.server_names
            canvas.text(server_x1, y_server + 76, f"{first} … {last}", size=12, anchor="start")
            canvas.text(server_x1, y_server + 94, _("%(servers)s servers, %(ports)s backend ports each") % {
                "servers": _n(picture.servers), "ports": _n(picture.ports_per_server)}, size=12, anchor="start")
            # The multiplier for the rest of the fabric.
            canvas.text(mx, y_server + 24, "× " + ngettext("%(n)s scale unit", "%(n)s scale units",
                                                            picture.scale_units)
                        % {"n": _n(picture.scale_units)}, size=16, weight="bold", anchor="start", cls="multiplier")
            if picture.pods:
                canvas.text(mx, y_server + 46, _("%(per_pod)s per pod, %(pods)s pods") % {
                    "per_pod": _n(picture.sus_per_pod), "pods": _n(picture.pods)}, size=12, anchor="start")
            y = y_server + 120
        else:
            canvas.text(mx, y_server + 32, _("The same %(servers)s servers") % {"servers": _n(picture.servers)},
                        size=12, anchor="start")
            y = y_server + 80
    canvas.raw("back", "</g>")
    canvas._grow(widest, 0)
    return y


def _overview(canvas: Canvas, picture: Overview, top: float) -> float:
    """One panel per plane, side by side, wrapped into rows no wider than MAX_WIDTH; returns the y below them."""
    canvas.text(MARGIN, top + 18, _("Pods, scale units, spines and cores") if picture.tiers == 3
                else _("Scale units and spines"), size=15, weight="bold", anchor="start", layer="back")
    col_gap, pad, panel_gap, box_h = 22, 16, 24, 48
    many = len(picture.panels) > 1
    three = picture.tiers == 3

    def heads(panel) -> list[str]:
        out = []
        for col in panel.columns:
            if col.more:
                out.append((ngettext("%(n)s more pod", "%(n)s more pods", col.more) if three
                            else ngettext("%(n)s more scale unit", "%(n)s more scale units", col.more))
                           % {"n": _n(col.more)})
            else:
                out.append((_("Pod %(pod)s") if three else _("SU %(su)s")) % {"pod": col.key, "su": col.key})
        return out

    def column_lines(panel) -> list[list[list[str]]]:
        out = []
        for head, col in zip(heads(panel), panel.columns):
            sus = ngettext("%(n)s SU", "%(n)s SUs", col.sus) % {"n": _n(col.sus)}
            if three:
                boxes = [[head, _count(col.spines, "spine")], [_count(col.leaves, "leaf"), sus]]
            else:
                boxes = [[head, _count(col.leaves, "leaf")]]
            out.append(boxes + [[_count(col.servers, "server")]])
        return out

    layouts = []
    for panel in picture.panels:
        lines = column_lines(panel)
        col_w = max([132.0] + [_box_width(box, 132) for boxes in lines for box in boxes])
        cols = max(1, len(panel.columns))
        top_lines = [_("Cores"), _count(panel.cores, "core")] if three else [_("Spines"), _count(panel.spines, "spine")]
        top_w = _box_width(top_lines, 180)
        title = _("Plane %(plane)s") % {"plane": panel.plane} if many else _("Fabric")
        width = max(2 * pad + cols * col_w + (cols - 1) * col_gap, 2 * pad + top_w,
                    2 * pad + text_width(title, 14, "bold"))
        layouts.append((panel, lines, col_w, top_lines, top_w, title, width))
    height = 40 + (110 if three else 0) + 110 + 110 + box_h + 20
    row_top = top + 36
    x = float(MARGIN)
    for index, (panel, lines, col_w, top_lines, top_w, title, width) in enumerate(layouts):
        if index and x + width > MAX_WIDTH - MARGIN:
            x, row_top = float(MARGIN), row_top + height + panel_gap
        colour = plane_colour(panel.plane) if many else "#8796a8"
        canvas.raw("back", f'<g class="plane-panel" data-plane="{int(panel.plane)}">')
        canvas.rect(x, row_top, width, height, fill="#ffffff", stroke=colour, stroke_width=3 if many else 1, rx=10,
                    layer="back")
        canvas.text(x + pad, row_top + 24, title, size=14, weight="bold", anchor="start", fill=colour, layer="back",
                    occupy=True)
        canvas.raw("back", "</g>")
        cols = max(1, len(panel.columns))
        inner = width - 2 * pad
        cols_w = cols * col_w + (cols - 1) * col_gap
        col_x = [x + pad + (inner - cols_w) / 2 + i * (col_w + col_gap) for i in range(cols)]
        y_top = row_top + 40
        y_spine = y_top + 110 if three else y_top
        y_leaf, y_server = y_spine + 110, y_spine + 220
        centre = x + width / 2
        # Boxes first (so counts keep clear of them), then edges and counts.
        canvas.box(centre - top_w / 2, y_top, top_w, box_h, top_lines, role="core" if three else "spine", stroke=colour)
        for cx, col, boxes in zip(col_x, panel.columns, lines):
            if three:
                canvas.box(cx, y_spine, col_w, box_h, boxes[0], role="spine", stroke=colour)
                canvas.box(cx, y_leaf, col_w, box_h, boxes[1], role="leaf", stroke=colour)
            else:
                canvas.box(cx, y_leaf, col_w, box_h, boxes[0], role="leaf", stroke=colour)
            canvas.box(cx, y_server, col_w, box_h, boxes[-1], role="server")
        for cx, col in zip(col_x, panel.columns):
            mid = cx + col_w / 2
            up_colour = colour if many else ("#8a5a9e" if three else "#5b6b82")
            if three:
                canvas.line(mid, y_spine, centre, y_top + box_h, stroke=up_colour)
                canvas.line(mid, y_spine + box_h, mid, y_leaf, stroke=colour if many else "#5b6b82")
            else:
                canvas.line(mid, y_leaf, centre, y_top + box_h, stroke=up_colour)
            canvas.line(mid, y_leaf + box_h, mid, y_server, stroke="#8b98a9")
        for cx, col in zip(col_x, panel.columns):
            mid = cx + col_w / 2
            if three:
                canvas.count(mid, y_spine, centre, y_top + box_h, col.core_links, along=(0.3, 0.22, 0.4, 0.5, 0.15))
                canvas.count(mid, y_spine + box_h, mid, y_leaf, col.spine_links)
            else:
                canvas.count(mid, y_leaf, centre, y_top + box_h, col.spine_links, along=(0.3, 0.22, 0.4, 0.5, 0.15))
            canvas.count(mid, y_leaf + box_h, mid, y_server, col.server_links)
        x += width + panel_gap
    return row_top + height + 16


def _legend(canvas: Canvas, top: float, *, rails: int, planes: int, tiers: int) -> float:
    """Chips in lines that wrap at MAX_WIDTH; returns the y below the last line."""
    canvas.raw("back", '<g class="legend">')
    x, y = float(MARGIN), top

    def advance(width: float) -> None:
        nonlocal x, y
        if x > MARGIN and x + width > max(MAX_WIDTH, canvas.width) - MARGIN:
            x, y = float(MARGIN), y + 22

    def title(text: str) -> None:
        nonlocal x
        width = text_width(text, 12, "bold") + 10
        advance(width)
        canvas.text(x, y, text, size=12, weight="bold", anchor="start", layer="back")
        x += width

    def chip(colour: str, text: str) -> None:
        nonlocal x
        width = 20 + text_width(text, 12) + 12
        advance(width)
        canvas.rect(x, y - 11, 14, 14, fill=colour, stroke="#8796a8", rx=2, layer="back")
        canvas.text(x + 20, y, text, size=12, anchor="start", layer="back")
        x += width

    title(_("Rails:"))
    for rail in range(rails):
        chip(rail_colour(rail), str(rail))
    if planes > 1:
        title(_("Planes:"))
        for plane in range(planes):
            chip(plane_colour(plane), str(plane))
    title(_("Devices:"))
    names = {"server": _("server"), "leaf": _("leaf"), "spine": _("spine"), "core": _("core")}
    for role in ("server", "leaf", "spine", "core"):
        if role == "core" and tiers < 3:
            continue
        chip(ROLE_FILL[role], names[role])
    canvas.raw("back", "</g>")
    return y + 16


def schematic_svg(*, title: str, subtitle: str, scale_unit: ScaleUnitPicture, overview: Overview,
                  rails: int, planes: int) -> str:
    """The whole schematic: title, the scale unit, the overview panels and the legend."""
    canvas = Canvas()
    canvas.text(MARGIN, 30, title, size=18, weight="bold", anchor="start", cls="title", layer="back")
    canvas.text(MARGIN, 52, subtitle, size=12, anchor="start", fill="#475569", cls="subtitle", layer="back")
    y = _scale_unit(canvas, scale_unit, 70, planes)
    y = _overview(canvas, overview, y + 10)
    y = _legend(canvas, y + 14, rails=rails, planes=planes, tiers=overview.tiers)
    width, height = round(canvas.width + MARGIN), round(y + 16)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" class="fabric-schematic">\n'
        f"<title>{escape(title)}</title>\n"
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>\n{canvas.svg_body()}\n</svg>\n'
    )
