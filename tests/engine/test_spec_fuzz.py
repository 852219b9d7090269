"""Any JSON value given as a spec either plans or raises the engine's own SpecError naming fields.

Specs are mutated from valid ones (inline hardware and seed SKUs): one to three values anywhere in the
tree are replaced with wrong types, nulls, huge or non-finite numbers, negative numbers, numbers as
strings, unknown SKUs and breakout modes, tiny address pools and absurd rack layouts.
"""
from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.plan import plan, size
from apps.engine.spec import SpecError
from apps.engine.specio import spec_from_dict

INLINE = {"gpus": 64, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}, "leaf": {"ports": 64, "gbps": 400},
          "planes": 1, "oversubscription": "1:1", "tiers": "auto",
          "layout": {"servers_per_rack": 4, "racks_per_row": 16, "rack_width_m": 0.6, "row_pitch_m": 2.4,
                     "slack_m": 3, "switches_per_rack": 16, "leaf_rack": "middle", "spine_rows": "end"},
          "pools": {"host": "10.0.0.0/12", "p2p": "10.16.0.0/12", "loopback": "10.32.0.0/16",
                    "asn_base": 4200000000},
          "discount_pct": 0, "currency": "USD", "name": "fuzz"}
BY_SKU = {"gpus": 64, "server": {"sku": "DGXH-G640F+P2EDI36"},
          "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}, "spine": "920-9N42F-00RI-7C0",
          "nic": {"sku": "MCX75310AAS-NEAT"}, "optics": ["MMA4Z00-NS400"], "cables": [{"sku": "NOPE"}],
          "fibers": [{"sku": "MFP7E10-N003"}]}
# Planning is only run below this size; bigger specs are sized (same feasibility rules, no links).
PLAN_GPUS = 2048

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10 ** 300, max_value=10 ** 400),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["NaN", "Infinity", "1e999", "-1", "0", "2", " 3 ", "3:1", "3:0", "0:0", "2x400G", "9x9G",
                     "1x800G", "auto", "middle", "10.0.0.0/31", "10.0.0.0/32", "10.0.0.1/8", "::/0", "NOPE"]),
)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _replace(value, path, new):
    if not path:
        return new
    out = copy.deepcopy(value)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return out


@st.composite
def mutated_specs(draw):
    spec = draw(st.sampled_from([INLINE, BY_SKU]))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(spec))))
        spec = _replace(spec, path, draw(json_values))
    return spec


def plans_or_names_fields(data) -> None:
    try:
        spec = spec_from_dict(data)
        plan(spec) if spec.gpus <= PLAN_GPUS else size(spec)
    except SpecError as exc:
        assert exc.errors and all(isinstance(k, str) for k in exc.errors), exc.errors
        assert all(messages and all(isinstance(m, str) and m for m in messages) for messages in exc.errors.values())
        str(exc)  # the CLI prints it


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_specs())
def test_any_mutated_spec_plans_or_raises_a_field_error(data):
    plans_or_names_fields(json.loads(json.dumps(data, allow_nan=True)))


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_any_json_value_plans_or_raises_a_field_error(data):
    plans_or_names_fields(data)
