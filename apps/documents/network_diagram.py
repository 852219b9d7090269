"""A diagram per other network (front-end, storage, out-of-band management) as a standalone SVG document.

Rules:
- Drawn from the version's stored figures (summary["networks"][key]: switches per tier, links per tier pair,
  endpoints) and the frozen spec (the switch models): nothing is recounted here.
- Tiers top to bottom (core, spine, leaf, then the endpoints: GPU servers, storage nodes, managed switches),
  one box per tier with its count and model; the links between two tiers are drawn in the middle of the
  picture and their count is written in a left gutter that no line enters, so a count is never under a line.
- Every text is escaped and fitted to its box (charts._fit); plain SVG 1.1, the schematic's font and colours.
"""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from .charts import _fit, _svg, wrap
from .formatting import count

WIDTH = 680
GUTTER = 180  # link counts live left of this x; every line and box lies right of it
AREA_LEFT, AREA_RIGHT = GUTTER + 20, WIDTH - 10
BOX_H, GAP = 48, 64
TIER_W = 300
INK, MUTED, LINE, FILL, STROKE = "#1d2430", "#4a5565", "#64748b", "#eef2f7", "#94a3b8"
ROLES = ("core", "spine", "leaf")


def _role_label(key: str, role: str, n: int) -> str:
    if key == "oob":
        labels = {"leaf": npgettext("network diagram", "management switch", "management switches", n),
                  "spine": npgettext("network diagram", "aggregation switch", "aggregation switches", n),
                  "core": npgettext("network diagram", "core switch", "core switches", n)}
    else:
        labels = {"leaf": npgettext("network diagram", "leaf switch", "leaf switches", n),
                  "spine": npgettext("network diagram", "spine switch", "spine switches", n),
                  "core": npgettext("network diagram", "core switch", "core switches", n)}
    return labels[role]


def _model(net_spec: dict[str, Any], role: str) -> str:
    for key in (role, "spine" if role == "core" else "", "leaf"):
        hw = net_spec.get(key) if key else None
        if isinstance(hw, dict) and hw.get("name"):
            return str(hw["name"])
    return ""


def _endpoints(key: str, net: dict[str, Any]) -> list[str]:
    ends = net.get("endpoints") or {}
    out = []
    servers = int(ends.get("servers") or 0)
    if servers:
        out.append(ngettext("%(n)s GPU server", "%(n)s GPU servers", servers) % {"n": count(servers)})
    nodes = int(ends.get("storage_nodes") or 0)
    if nodes:
        out.append(ngettext("%(n)s storage node", "%(n)s storage nodes", nodes) % {"n": count(nodes)})
    switches = int(ends.get("switches") or 0) if key == "oob" else 0
    if switches:
        out.append(ngettext("%(n)s managed switch", "%(n)s managed switches", switches) % {"n": count(switches)})
    return out


def _box(x: float, y: float, w: float, lines: list[str]) -> list[str]:
    body = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{BOX_H}" rx="6" fill="{FILL}" '
            f'stroke="{STROKE}" stroke-width="1.2"/>']
    sizes = (13, 10.5)
    ys = (y + 21, y + 37) if len(lines) > 1 else (y + 29,)
    for i, line in enumerate(lines[:2]):
        weight = ' font-weight="bold"' if i == 0 else ""
        body.append(f'<text x="{x + w / 2:.1f}" y="{ys[i]:.1f}" font-size="{sizes[i]}" text-anchor="middle"{weight} '
                    f'fill="{INK if i == 0 else MUTED}">{_fit(line, w - 12, sizes[i])}</text>')
    return body


def _links_label(links: int, y_top: float) -> list[str]:
    text = ngettext("%(n)s link", "%(n)s links", links) % {"n": count(links)}
    y = y_top + GAP / 2 + 5
    return [f'<text x="{GUTTER - 8}" y="{y:.1f}" font-size="12" font-weight="bold" text-anchor="end" '
            f'fill="{INK}">{_fit(text, GUTTER - 16, 12)}</text>']


def network_svg(*, key: str, title: str, net: dict[str, Any], net_spec: dict[str, Any]) -> str | None:
    """The network's tiers, counts and link counts; None when it has no switches of its own (converged)."""
    switches = net.get("switches") or {}
    links = net.get("links") or {}
    tiers = [role for role in ROLES if int(switches.get(role) or 0)]
    if not tiers:
        return None
    body: list[str] = []
    title_lines = wrap(title, WIDTH - 4, 14)
    for i, line in enumerate(title_lines):
        body.append(f'<text x="0" y="{18 + 18 * i}" font-size="14" font-weight="bold" fill="{INK}">'
                    f'{escape(line)}</text>')
    y = 18 + 18 * len(title_lines) + 8
    centre = (AREA_LEFT + AREA_RIGHT) / 2
    pair_links = {("core", "spine"): links.get("spine-core"), ("spine", "leaf"): links.get("leaf-spine")}
    previous = None
    for role in tiers:
        n = int(switches[role])
        if previous is not None:
            top, bottom = y - GAP, y
            for dx in (-90, -30, 30, 90):  # a bundle of lines stands for the tier pair's links
                body.append(f'<line x1="{centre + dx:.1f}" y1="{top:.1f}" x2="{centre + dx * 1.2:.1f}" '
                            f'y2="{bottom:.1f}" stroke="{LINE}" stroke-width="1.2"/>')
            body += _links_label(int(pair_links.get((previous, role)) or 0), top)
        body += _box(centre - TIER_W / 2, y, TIER_W, [f"{count(n)} × {_role_label(key, role, n)}",
                                                     _model(net_spec, role)])
        previous = role
        y += BOX_H + GAP
    ends = _endpoints(key, net)
    if ends:
        slot = (AREA_RIGHT - AREA_LEFT) / len(ends)
        w = min(200.0, slot - 12)
        top = y - GAP
        for i, label in enumerate(ends):
            cx = AREA_LEFT + slot * (i + 0.5)
            body.append(f'<line x1="{centre + (i - (len(ends) - 1) / 2) * 40:.1f}" y1="{top:.1f}" x2="{cx:.1f}" '
                        f'y2="{y:.1f}" stroke="{LINE}" stroke-width="1.2"/>')
            body += _box(cx - w / 2, y, w, [label])
        body += _links_label(int(links.get("server-leaf") or 0), top)
        y += BOX_H
    gbps = net.get("gbps")
    if gbps:
        speed = _("Endpoint links run at %(gbps)s Gb/s.") % {"gbps": count(gbps)}
        body.append(f'<text x="0" y="{y + 24:.1f}" font-size="11" fill="{MUTED}">{escape(speed)}</text>')
        y += 24
    return _svg(WIDTH, y + 12, body, title)
