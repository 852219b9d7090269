"""Charts of the design document as standalone SVG documents, drawn on the server.

Rules:
- Plain SVG 1.1 (rectangles, lines, text; no script, no external reference), the font and colours
  of the topology schematic (apps.designs.api.topology.drawing), so the PDF embeds them as vectors
  and the Word file gets the same picture rasterised.
- Every text is escaped; axis and bar labels longer than LABEL_MAX characters are shortened with "…". Titles
  are never shortened: they wrap onto as many lines as the chart's width needs. Legend entries are laid out by
  their measured width (model.text_width: a CJK character is one em) and wrap to further rows, so no text runs
  over a swatch or another entry.
- Values are drawn to scale from zero; an empty series draws nothing (the chapter says so in words).
"""
from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from apps.designs.api.topology.drawing import FONT, PLANE_COLOURS

from .model import text_width

LABEL_MAX = 34
BAR_COLOUR = PLANE_COLOURS[0]
HIGHLIGHT = PLANE_COLOURS[1]
SERIES = PLANE_COLOURS


def _text(value: str) -> str:
    value = str(value)
    return escape(value if len(value) <= LABEL_MAX else value[: LABEL_MAX - 1] + "…")


def _fit(value: str, width: float, size: float) -> str:
    """`value` escaped, shortened with "…" until it is no wider than `width` px at font `size`."""
    value = str(value)
    if text_width(value) * size <= width:
        return escape(value)
    while value and text_width(value + "…") * size > width:
        value = value[:-1]
    return escape(value.rstrip() + "…")


def _number(value: float) -> str:
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:,.1f}"
    return f"{value:,.2f}".rstrip("0").rstrip(".") if value else "0"


TITLE_SIZE, LEGEND_SIZE = 14, 11


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` in lines no wider than `width` px at font `size`: broken between words, or between CJK characters."""
    lines: list[str] = []
    line = ""
    for token in _tokens(str(text)):
        candidate = line + token
        if line and text_width(candidate.rstrip()) * size > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line = candidate
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def _tokens(text: str) -> list[str]:
    """Words with their trailing space; every wide (CJK) character is a token of its own."""
    tokens, word = [], ""
    for ch in text:
        if text_width(ch) >= 1.0:
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        elif ch == " ":
            tokens.append(word + " ")
            word = ""
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens


def _title(title: str, width: float) -> tuple[list[str], float]:
    """The title's text lines and the y under it."""
    lines = wrap(title, width - 4, TITLE_SIZE)
    body = [f'<text x="0" y="{18 + i * (TITLE_SIZE + 4)}" font-size="{TITLE_SIZE}" font-weight="bold" '
            f'fill="#1d2430">{escape(line)}</text>' for i, line in enumerate(lines)]
    return body, 18 + (len(lines) - 1) * (TITLE_SIZE + 4) + 8


def legend(entries: Sequence[tuple[str, str]], *, x0: float, y0: float, width: float) -> tuple[list[str], float]:
    """Swatch and name per (name, colour), left to right, wrapping to a new row; the y under the last row."""
    body, x, y = [], x0, y0
    row_h, gap, swatch = LEGEND_SIZE + 7, 16, 10
    for name, colour in entries:
        label = _text(name)
        entry_w = swatch + 4 + text_width(name if len(str(name)) <= LABEL_MAX else label) * LEGEND_SIZE
        if x > x0 and x + entry_w > x0 + width:
            x, y = x0, y + row_h
        body.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{swatch}" height="{swatch}" fill="{colour}"/>')
        body.append(f'<text x="{x + swatch + 4:.1f}" y="{y + swatch - 1:.1f}" font-size="{LEGEND_SIZE}" '
                    f'fill="#1d2430">{label}</text>')
        x += entry_w + gap
    return body, y + row_h


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{escape(FONT)}">'
            f'<title>{escape(title)}</title><rect width="100%" height="100%" fill="#ffffff"/>'
            + "".join(body) + "</svg>")


def horizontal_bars_svg(*, title: str, labels: Sequence[str], values: Sequence[float], unit: str = "",
                        highlight: int | None = None, width: int = 680) -> str:
    """One bar per label, longest value full width; the highlighted bar (the chosen design) in another colour."""
    row, left = 26, 250
    right_margin = 110
    body, top = _title(title, width)
    top += 4
    height = top + row * max(1, len(labels)) + 14
    biggest = max([float(v) for v in values] + [0.0])
    span = width - left - right_margin
    for i, (label, value) in enumerate(zip(labels, values)):
        y = top + i * row
        length = 0.0 if biggest <= 0 else span * max(0.0, float(value)) / biggest
        colour = HIGHLIGHT if i == highlight else BAR_COLOUR
        body.append(f'<text x="{left - 8}" y="{y + 15}" font-size="12" text-anchor="end" fill="#1d2430">'
                    f'{_fit(label, left - 12, 12)}</text>')
        body.append(f'<rect x="{left}" y="{y + 3}" width="{length:.1f}" height="{row - 8}" fill="{colour}"/>')
        body.append(f'<text x="{left + length + 6:.1f}" y="{y + 15}" font-size="12" fill="#1d2430">'
                    f'{escape(_number(float(value)))}{(" " + escape(unit)) if unit else ""}</text>')
    return _svg(width, height, body, title)


def columns_svg(*, title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float]]],
                y_label: str = "", width: int = 680, height: int = 300) -> str:
    """Vertical columns per label, one colour per series (a histogram when there is one series)."""
    left, bottom, right = 62, 64, 16
    body, top = _title(title, width)
    if len(series) > 1:
        entries = [(str(name), SERIES[s % len(SERIES)]) for s, (name, _values) in enumerate(series)]
        legend_body, top = legend(entries, x0=left, y0=top, width=width - left - right)
        body += legend_body
    top += 10
    height += top - 40  # the plot keeps its height under a taller title or legend
    plot_w, plot_h = width - left - right, height - top - bottom
    biggest = max([float(v) for _name, values in series for v in values] + [0.0])
    biggest = biggest or 1.0
    # Axis and four grid lines with their values.
    for step in range(5):
        value = biggest * step / 4
        y = top + plot_h - plot_h * step / 4
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#d5dbe3" '
                    f'stroke-width="1"/>')
        body.append(f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" fill="#4a5565">'
                    f'{escape(_number(value))}</text>')
    if y_label:
        body.append(f'<text x="12" y="{top + plot_h / 2:.1f}" font-size="11" fill="#4a5565" text-anchor="middle" '
                    f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{_text(y_label)}</text>')
    groups = max(1, len(labels))
    slot = plot_w / groups
    bars = max(1, len(series))
    bar_w = max(2.0, (slot * 0.8) / bars)
    for g, label in enumerate(labels):
        x0 = left + g * slot + slot * 0.1
        for s, (_name, values) in enumerate(series):
            value = float(values[g]) if g < len(values) else 0.0
            h = plot_h * max(0.0, value) / biggest
            body.append(f'<rect x="{x0 + s * bar_w:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w - 1:.1f}" '
                        f'height="{h:.1f}" fill="{SERIES[s % len(SERIES)]}"/>')
        cx = left + g * slot + slot / 2
        body.append(f'<text x="{cx:.1f}" y="{top + plot_h + 16}" font-size="10" text-anchor="end" fill="#1d2430" '
                    f'transform="rotate(-35 {cx:.1f} {top + plot_h + 16})">{_text(label)}</text>')
    return _svg(width, height, body, title)
