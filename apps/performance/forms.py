"""The Performance page's form: a preset and its parallelism, as the engine's WORKLOAD dict.

Empty numeric fields are left out of the workload, so the engine takes its defaults (and says
which); numbers that are not numbers are field errors here, everything else is checked by the
engine against the version (apps.engine.simulation.workload) and shown on its field.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from apps.engine.simulation import FAILURES, PRECISIONS, PRESETS, ROUTINGS, ZERO

from .text import FAILURE_LABELS, ROUTING_LABELS, ZERO_LABELS

INT_FIELDS = ("tp", "pp", "cp", "ep", "dp", "seq_len", "global_batch", "micro_batch", "virtual_stages",
              "ep_node_limit")
FLOAT_FIELDS = ("gpu_tflops", "mfu", "overlap", "ep_overlap", "switch_latency_ns", "nic_latency_ns")


class PerformanceForm(forms.Form):
    model = forms.ChoiceField(label=pgettext_lazy("training model", "Model"),
                              choices=[(k, p.name) for k, p in PRESETS.items()])
    routing = forms.ChoiceField(label=_("Routing"), choices=[(k, ROUTING_LABELS[k]) for k in ROUTINGS])
    precision = forms.ChoiceField(label=_("Precision"), choices=[(k, k.upper()) for k in PRECISIONS])
    zero = forms.ChoiceField(label=_("Data-parallel sharding"), choices=[(k, ZERO_LABELS[k]) for k in ZERO])
    tp = forms.IntegerField(label=_("Tensor parallel (TP)"), required=False, min_value=1)
    pp = forms.IntegerField(label=_("Pipeline parallel (PP)"), required=False, min_value=1)
    cp = forms.IntegerField(label=_("Context parallel (CP)"), required=False, min_value=1)
    ep = forms.IntegerField(label=_("Expert parallel (EP)"), required=False, min_value=1)
    dp = forms.IntegerField(label=_("Data parallel (DP)"), required=False, min_value=1)
    seq_len = forms.IntegerField(label=_("Sequence length"), required=False, min_value=1)
    global_batch = forms.IntegerField(label=_("Global batch (sequences)"), required=False, min_value=1)
    micro_batch = forms.IntegerField(label=_("Micro-batch"), required=False, min_value=1)
    gpu_tflops = forms.FloatField(label=_("GPU peak TFLOPS"), required=False, min_value=1)
    mfu = forms.FloatField(label=_("Compute efficiency while computing (0-1)"), required=False, min_value=0.01,
                           max_value=1, help_text=_("Not a measured end-to-end MFU: communication and pipeline "
                                                    "bubbles are added by the model, and the achieved MFU is shown."))
    pp_schedule = forms.ChoiceField(label=_("Pipeline schedule"), required=False,
                                    choices=[("1f1b", _("1F1B")), ("interleaved", _("Interleaved 1F1B")),
                                             ("dualpipe", _("DualPipe (DeepSeek-V3)"))],
                                    help_text=_("DualPipe: bubble (PP/2 - 1)(F&B + B - 3W) after the DeepSeek-V3 "
                                                "report; needs an even PP and an even number of micro-batches, "
                                                "and hides the expert All-to-All unless its overlap is lowered."))
    virtual_stages = forms.IntegerField(label=_("Model chunks per GPU (interleaved)"), required=False, min_value=1)
    ep_overlap = forms.FloatField(label=_("Expert All-to-All overlap with compute (0-1)"), required=False,
                                  min_value=0, max_value=1)
    ep_node_limit = forms.IntegerField(
        label=_("Nodes a token's experts may span (0: no limit)"), required=False, min_value=0,
        help_text=_("Node-limited routing: each token crosses the fabric once per node it reaches and NVLink "
                    "forwards it to its experts (DeepSeek-V3: 4 nodes, the default for that model). 0: every routed "
                    "expert gets its own copy over the fabric."))
    overlap = forms.FloatField(label=_("DP overlap with compute (0-1)"), required=False, min_value=0, max_value=1)
    switch_latency_ns = forms.FloatField(label=_("Switch port-to-port latency (ns)"), required=False, min_value=0,
                                         help_text=_("With the NIC latency: network steps cost their path's hops "
                                                     "instead of NCCL's per-step figure."))
    nic_latency_ns = forms.FloatField(label=_("NIC latency (ns)"), required=False, min_value=0)
    failures = forms.MultipleChoiceField(label=_("Failure scenarios"), required=False,
                                         widget=forms.CheckboxSelectMultiple,
                                         choices=[(k, FAILURE_LABELS[k]) for k in FAILURES])
    alternatives = forms.BooleanField(label=_("Also run on the design's alternatives"), required=False)

    def __init__(self, *args, tiers: int | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if tiers is not None and tiers < 3:  # no core switch to fail in a 2-tier fabric
            self.fields["failures"].choices = [(k, v) for k, v in self.fields["failures"].choices if k != "core"]

    def workload(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {k: data[k] for k in ("model", "routing", "precision", "zero")}
        if data.get("pp_schedule"):
            out["pp_schedule"] = data["pp_schedule"]
        for name in INT_FIELDS + FLOAT_FIELDS:
            if data.get(name) is not None:
                out[name] = data[name]
        if data.get("failures"):
            out["failures"] = list(data["failures"])
        return out
