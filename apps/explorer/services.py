"""Exploring the catalog for a request, and generating the candidate a user picks.

Rules:
- The request: GPUs, a server (its default NIC), the fabric (Ethernet or InfiniBand) and the customer's
  bar, each optional: oversubscription at most, hops at most, growth to at least N GPUs, budget (in the
  quote's currency), network power cap (typical W); the o:1 ratios to try (1:1 by default) and whether to
  list blocking (fewest-spines) wirings. Bad input raises ValidationError by field, as the design form's
  service does (gpus and server are checked by apps.designs.services.inputs), and nothing is written.
- Everything else a quote depends on (rack layout, pools, discount, currency, spares, third-party optics)
  is the design's latest version's when exploring from a design, else the project's defaults, so the
  total a candidate shows is the total its generated version quotes.
- Every active switch of the fabric in every breakout mode at the NIC speed is explored (engine.explore);
  a switch priced in a currency without an exchange rate to the quote's is left out and named.
- "Generate this one" creates a design version with the candidate's inputs through
  design_version_create (from a design) or design_create (a new design, named after the candidate),
  so generation, its job and its checks are the design form's.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from apps.catalog.models import ServerModel, SwitchModel, parse_breakout
from apps.catalog.selectors import MissingExchangeRate, server_list, switch_hw, switch_list
from apps.designs.models import Design
from apps.designs.services.design import design_create, design_version_create
from apps.designs.services.inputs import design_inputs_clean, design_inputs_from_version, spec_error_fields
from apps.engine.explore import Bar, ExploreRequest, explore
from apps.engine.explore.io import candidate_dict
from apps.engine.spec import SpecError
from apps.projects.models import Project

from .text import bar_label, candidate_label, miss_text

FABRICS = ("ethernet", "infiniband")
STRUCTURE_INPUTS = ("leaf_switch", "leaf_breakout", "spine_switch", "spine_breakout", "core_switch",
                    "core_breakout", "planes", "tiers", "oversubscription")


def _base_data(*, project: Project, design: Design | None, server: Any, gpus: Any) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if design is not None:
        latest = design.versions.order_by("-number").first()
        if latest is not None:
            data = design_inputs_from_version(version=latest)
    for key in STRUCTURE_INPUTS + ("nic",):
        data.pop(key, None)
    data.update(server=server, gpus=gpus)
    return data


def _switches(*, fabric: str, gbps: int | None) -> list[tuple[SwitchModel, str]]:
    """(switch, breakout) of every active switch of the fabric whose ports run at `gbps` in that mode."""
    out = []
    # Backend fabric switches with published power only: the explorer compares candidates' power.
    for switch in switch_list(active_only=True, switch_class="fabric", fabric=fabric).filter(
            power_typical_w__isnull=False, power_max_w__isnull=False):
        for mode in switch.breakouts or []:
            if gbps is not None and parse_breakout(mode)[1] == gbps:
                out.append((switch, mode))
    return out


def explorer_run(*, project: Project, data: dict[str, Any], design: Design | None = None) -> dict[str, Any]:
    """Every feasible fabric for the request (module rules) as plain JSON, cheapest first.

    {"candidates": [{label, total_cost, currency, as_stated, pareto, blocking, meets_bar, misses
    [{bar, limit, value, text}], leaf/spine/core {sku, name, breakout, vendor}, planes, tiers,
    oversubscription, switches, power_w, power_max_w, rack_units, max_gpus, max_hops,
    worst_pair_fraction, stated_fraction, inputs {leaf_switch, ..., oversubscription}}],
    "bar": {name: limit}, "bar_met", "explored", "feasible", "seconds", "skipped": [switch names]}
    """
    fabric = data.get("fabric") or "ethernet"
    if fabric not in FABRICS:
        raise ValidationError({"fabric": [_("Choose Ethernet or InfiniBand.")]})
    base = _base_data(project=project, design=design, server=data.get("server"), gpus=data.get("gpus"))
    server = data.get("server")
    server_obj = server if isinstance(server, ServerModel) else (
        server_list(active_only=True).filter(pk=int(server)).first()
        if isinstance(server, (int, str)) and str(server).isascii() and str(server).isdigit() else None)
    gbps = server_obj.backend_gbps if server_obj is not None else None
    options = _switches(fabric=fabric, gbps=gbps)
    errors: dict[str, list[str]] = {}
    if server_obj is not None and not options:
        errors["fabric"] = [_("No active %(fabric)s switch in the catalog runs ports at %(gbps)s Gb/s.")
                            % {"fabric": _fabric_name(fabric), "gbps": gbps}]
    if options:
        base["leaf_switch"] = options[0][0]
        base["leaf_breakout"] = options[0][1]
    else:
        base["leaf_switch"] = None
    try:
        inputs = design_inputs_clean(project=project, data=base)
    except ValidationError as exc:
        for name, messages in exc.message_dict.items():
            if name in ("leaf_switch", "leaf_breakout"):  # a stand-in: the explorer chooses the switches
                continue
            errors.setdefault(name, []).extend(messages)
        raise ValidationError(errors) from None
    if errors:
        raise ValidationError(errors)
    switches, by_key, skipped = [], {}, []
    for switch, mode in options:
        try:
            hw = switch_hw(switch=switch, breakout=mode, prices=inputs.prices)
        except MissingExchangeRate:
            skipped.append(str(switch))
            continue
        switches.append(hw)
        by_key[(hw.sku, hw.breakout)] = switch
    request = ExploreRequest(
        base=inputs.spec(name=design.name if design is not None else ""), switches=tuple(switches),
        bar=Bar(**{k: data[k] for k in ("max_oversubscription", "max_hops", "min_growth_gpus", "budget",
                                         "max_power_w") if data.get(k) is not None}),
        oversubscriptions=tuple(data.get("oversubscriptions") or (1.0,)), blocking=bool(data.get("blocking")),
    )
    try:
        result = explore(request)
    except SpecError as exc:
        raise ValidationError(spec_error_fields(exc)) from None
    candidates = []
    for c in result.candidates:
        item = candidate_dict(c)
        del item["spec"]
        item["label"] = candidate_label(item)
        for miss in item["misses"]:
            miss["text"] = miss_text(miss, currency=item["currency"])
        tiers = {"leaf": c.spec.leaf, "spine": c.spec.spine_hw, "core": c.spec.core_hw}
        item["inputs"] = {"planes": c.sizing.planes, "tiers": c.sizing.tiers,
                          "oversubscription": c.spec.oversubscription}
        for role, hw in tiers.items():
            item["inputs"][f"{role}_switch"] = by_key[(hw.sku, hw.breakout)].pk
            item["inputs"][f"{role}_breakout"] = hw.breakout
        candidates.append(item)
    return {
        "candidates": candidates, "bar": result.bar.given(),
        "bar_labels": {name: bar_label(name) for name in result.bar.given()},
        "bar_met": result.bar_met, "explored": result.explored, "feasible": result.feasible,
        "seconds": result.seconds, "skipped": skipped, "currency": inputs.currency,
    }


def _fabric_name(fabric: str) -> str:
    return {"ethernet": "Ethernet", "infiniband": "InfiniBand"}.get(fabric, fabric)


def explorer_generate(*, project: Project, user: Any, data: dict[str, Any], design: Design | None = None,
                      name: str = ""):
    """A new version (of `design`) or a new design with the candidate's inputs; returns its generation job.

    `data`: gpus, server and the candidate's structure inputs (STRUCTURE_INPUTS). ValidationError by field.
    """
    inputs = {key: data[key] for key in ("gpus", "server") + STRUCTURE_INPUTS if key in data}
    if design is not None:
        return design_version_create(design=design, user=user, data=inputs)
    base_name = ((name or "").strip() or _("Explored fabric"))[:110]  # room for " (2)" within the name's 120
    taken = set(Design.objects.filter(project=project).values_list("name", flat=True))
    taken = {t.lower() for t in taken}
    unique, n = base_name, 2
    while unique.lower() in taken:
        unique = f"{base_name} ({n})"
        n += 1
    return design_create(project=project, user=user, name=unique, data=inputs)
