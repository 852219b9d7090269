"""The traffic analysis of a rack-scale design says, in both languages, that a domain's traffic stays on NVLink."""
from __future__ import annotations

import numpy as np
from django.utils import translation

from apps.analysis.text import pattern_description, traffic_note
from apps.engine.plan import plan
from apps.engine.specio import spec_from_dict
from apps.engine.traffic.fabric import Fabric
from apps.engine.traffic.patterns import all_to_all, ring_all_reduce


def _fabric(gpus: int) -> Fabric:
    return Fabric(plan(spec_from_dict({"gpus": gpus, "server": "DGX-GB200-NVL72-TRAY",
                                       "leaf": {"sku": "MQM9700-NS2F"}})))


def test_rack_scale_descriptions_read_in_both_languages():
    fabric = _fabric(144)
    rng = np.random.default_rng(0)
    texts = [ring_all_reduce(fabric, max_flows=10**6, rng=rng).description,
             all_to_all(fabric, max_flows=10**6, rng=rng).description]
    assert "2 scale-up domains" in texts[0] and "NVLink" in texts[1]
    with translation.override("zh-hans"):
        for text in texts:
            translated = pattern_description(text)
            assert translated != text and "NVLink" in translated


def test_one_domain_sends_nothing_over_the_fabric():
    fabric = _fabric(72)
    flows = all_to_all(fabric, max_flows=10**6, rng=np.random.default_rng(0))
    assert flows.src.size == 0
    note = "No network traffic: the collective stays inside one scale-up domain (NVLink)."
    with translation.override("zh-hans"):
        assert traffic_note(note) != note
