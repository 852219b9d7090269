"""What an SVG document paints, in painting order, with the boxes its texts cover (measured with the font a
renderer on this machine picks for the schematic: Noto Sans CJK SC; an estimate that errs wide without it).

`painted(svg)` -> list of Shape; `covered_labels(shapes)`, `overlapping_boxes(shapes)` and friends name what
a reader would see wrong: a label under a line drawn after it, boxes on boxes, labels on labels.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import lru_cache
from xml.etree import ElementTree

SVG = "{http://www.w3.org/2000/svg}"
FONTS = {"normal": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
         "bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"}
SC_INDEX = 2  # Simplified Chinese face in the collection


@dataclass
class Shape:
    kind: str  # line, rect, text
    order: int
    box: tuple[float, float, float, float]
    classes: tuple[str, ...] = ()
    text: str = ""
    line: tuple[float, float, float, float, float] | None = None  # x1, y1, x2, y2, stroke width


@lru_cache(maxsize=None)
def _font(weight: str, size: float):
    from PIL import ImageFont

    path = FONTS["bold" if weight == "bold" else "normal"]
    if not os.path.exists(path):
        return None
    return ImageFont.truetype(path, size=max(1, round(size * 4)), index=SC_INDEX)


def text_width(content: str, size: float, weight: str = "normal") -> float:
    font = _font(weight, size)
    if font is None:
        return sum(1.0 if ord(ch) > 0x2e80 else 0.62 for ch in content) * size
    return font.getlength(content) / 4


def painted(svg: str | bytes) -> list[Shape]:
    root = ElementTree.fromstring(svg)
    shapes: list[Shape] = []

    def walk(element, classes: tuple[str, ...]):
        own = tuple((element.get("class") or "").split())
        inherited = classes + own
        tag = element.tag.replace(SVG, "")
        order = len(shapes)
        if tag == "line":
            x1, y1, x2, y2 = (float(element.get(k)) for k in ("x1", "y1", "x2", "y2"))
            width = float(element.get("stroke-width") or 1)
            shapes.append(Shape("line", order, (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)), inherited,
                                line=(x1, y1, x2, y2, width)))
        elif tag == "rect":
            x, y, w, h = (float(element.get(k)) for k in ("x", "y", "width", "height"))
            shapes.append(Shape("rect", order, (x, y, x + w, y + h), inherited))
        elif tag == "text":
            content = element.text or ""
            size = float(element.get("font-size") or 12)
            width = text_width(content, size, element.get("font-weight") or "normal")
            x, y = float(element.get("x")), float(element.get("y"))
            anchor = element.get("text-anchor") or "start"
            x1 = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
            shapes.append(Shape("text", order, (x1, y - 0.88 * size, x1 + width, y + 0.12 * size), inherited,
                                text=content))
        for child in element:
            walk(child, inherited)

    for child in root:
        walk(child, ())
    return shapes


def _overlap(a, b, slack: float = 0.0) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def _segment_hits_box(line, box) -> bool:
    """Whether a stroked segment (x1, y1, x2, y2, width) touches a box."""
    x1, y1, x2, y2, width = line
    pad = width / 2
    bx1, by1, bx2, by2 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    # Liang-Barsky clipping of the segment against the padded box.
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - bx1), (dx, bx2 - x1), (-dy, y1 - by1), (dy, by2 - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def covered_labels(shapes: list[Shape]) -> list[tuple[str, int]]:
    """Texts with an edge stroke painted after them across their box: (text, line order)."""
    texts = [s for s in shapes if s.kind == "text" and s.text.strip()]
    lines = [s for s in shapes if s.kind == "line"]
    return [(t.text, line.order) for t in texts for line in lines
            if line.order > t.order and _segment_hits_box(line.line, t.box)]


def node_boxes(shapes: list[Shape]) -> list[Shape]:
    return [s for s in shapes if s.kind == "rect" and "node" in s.classes]


def overlapping_boxes(shapes: list[Shape]) -> list[tuple[tuple, tuple]]:
    boxes = node_boxes(shapes)
    return [(a.box, b.box) for i, a in enumerate(boxes) for b in boxes[i + 1:] if _overlap(a.box, b.box, 0.5)]


def overlapping_labels(shapes: list[Shape]) -> list[tuple[str, str]]:
    texts = [s for s in shapes if s.kind == "text" and s.text.strip()]
    return [(a.text, b.text) for i, a in enumerate(texts) for b in texts[i + 1:] if _overlap(a.box, b.box, 0.5)]


def labels_outside_their_box(shapes: list[Shape]) -> list[str]:
    """Texts of a node box (g.node) that stick out of it."""
    out = []
    current = None
    for shape in shapes:
        if shape.kind == "rect" and "node" in shape.classes:
            current = shape
        elif shape.kind == "text" and "node" in shape.classes and current is not None and shape.text.strip():
            b, t = current.box, shape.box
            if t[0] < b[0] - 0.5 or t[2] > b[2] + 0.5 or t[1] < b[1] - 0.5 or t[3] > b[3] + 0.5:
                out.append(shape.text)
    return out


def counts_on_boxes(shapes: list[Shape]) -> list[str]:
    """Link counts that lie on a node box."""
    boxes = node_boxes(shapes)
    return [s.text for s in shapes if s.kind == "text" and "count" in s.classes
            if any(_overlap(s.box, b.box, 0.5) for b in boxes)]


def size(svg: str | bytes) -> tuple[int, int]:
    root = ElementTree.fromstring(svg)
    return math.ceil(float(root.get("width"))), math.ceil(float(root.get("height")))
