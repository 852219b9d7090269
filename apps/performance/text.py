"""Words for the performance model's keys, in the reader's language (the engine's result holds keys)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from apps.engine.simulation import PRESETS

COLLECTIVE_LABELS = {
    "all-reduce": _("All-Reduce"), "all-gather": _("All-Gather"), "reduce-scatter": _("Reduce-Scatter"),
    "all-to-all": _("All-to-All"), "send-recv": _("Send / receive"),
}
KEY_LABELS = {
    "tp-all-reduce": _("TP All-Reduce"), "cp-all-gather": _("CP All-Gather"),
    "cp-reduce-scatter": _("CP Reduce-Scatter"), "ep-dispatch": _("EP All-to-All dispatch"),
    "ep-combine": _("EP All-to-All combine"), "pp-send-recv": _("PP send / receive"),
    "dp-reduce-scatter": _("DP gradient Reduce-Scatter"), "dp-all-gather": _("DP parameter All-Gather"),
    "dp-all-reduce": _("DP gradient All-Reduce"),
    "edp-reduce-scatter": _("Expert gradient Reduce-Scatter (DP / EP)"),
    "edp-all-gather": _("Expert parameter All-Gather (DP / EP)"),
    "edp-all-reduce": _("Expert gradient All-Reduce (DP / EP)"),
}
ROUTING_LABELS = {"ecmp": _("ECMP"), "hash-aware": _("Hash-aware source ports"),
                  "spray": _("Adaptive routing / packet spraying"), "nvlink": _("NVLink")}
NETWORK_LABELS = {"scale-up": _("scale-up"), "scale-out": _("scale-out")}
FAILURE_LABELS = {"": _("healthy"), "link": _("one leaf-spine link down"), "leaf": _("one leaf down"),
                  "spine": _("one spine down"), "core": _("one core switch down")}
ALGORITHM_LABELS = {"ring": _("Ring"), "tree": _("Tree"), "pat": _("PAT"), "pairwise": _("Pairwise"),
                    "p2p": _("Point-to-point"), "nvls": _("NVLS (NVLink SHARP)"),
                    "nvlstree": _("NVLSTree (NVLink SHARP + Tree)")}
ZERO_LABELS = {"zero1": _("ZeRO-1 (Reduce-Scatter + All-Gather)"), "fsdp": _("FSDP"),
               "none": _("none (All-Reduce)")}
ASSUMPTIONS = (
    _("Flow-level model: every flow gets its max-min fair share of the links on its path, recomputed as waves of "
      "flows finish; packets, queues and congestion control are not modelled."),
    _("ECMP hashes the RoCE 5-tuple with a random source port at every switch; hash-aware source ports place flows "
      "round-robin over each switch's next hops; spraying splits every flow evenly over the leaf's uplinks."),
    _("Ranks follow Megatron-LM's order (TP innermost, then CP, DP, PP); GPU i of a server uses NIC i x ports / GPUs; "
      "All-to-All crosses NVLink to the NIC on the destination's rail (PXN)."),
    _("Rings follow rank order, each hop on NCCL's channels x NCCL_IB_QPS_PER_CONNECTION queue pairs, each queue "
      "pair its own ECMP flow; the traffic analysis uses the same rings."),
    _("Latency, algorithm and protocol (Ring, Tree, PAT, NVLS, NVLSTree; LL, LL128, Simple) follow NCCL 2.30.7's "
      "tuning model; NVLink runs at the bandwidth NCCL reaches (370.8 GB/s per H100), not its line rate; CollNet "
      "in-network reduction in the switches is not offered."),
    _("Step time = compute at the stated compute efficiency + exposed communication + pipeline bubble (1F1B, "
      "interleaved or DualPipe); data-parallel collectives hide behind compute up to the stated overlap, expert "
      "All-to-All (and PP under DualPipe) up to the stated expert overlap; expert gradients are reduced over DP / EP "
      "ranks."),
    _("Node-limited expert routing (DeepSeek-V3): a token crosses the fabric once per node it reaches, to the GPU on "
      "its own rail, and NVLink forwards it to its experts' GPUs at the same time; without a node limit every routed "
      "expert gets its own copy (an All-to-All of top-k copies)."),
)


def label(table: dict, key: str) -> str:
    value = table.get(key)
    return str(value) if value is not None else key


def collective_label(row: dict) -> str:
    return label(KEY_LABELS, row["key"]) if row.get("parallelism") else label(COLLECTIVE_LABELS, row["collective"])


def result_notes(result: dict) -> list[str]:
    """The engine's notes in the reader's language (known ones translated, sampling notes as stored)."""
    out = []
    for note in result.get("notes", []):
        if note.startswith("The server has no published scale-up bandwidth"):
            out.append(str(_("The server has no published scale-up bandwidth here: it is taken as an NVLink server "
                             "whose scale-up bandwidth does not limit the scale-out collectives (scale-up "
                             "collectives count their latency only).")))
        elif note.startswith("No published peak throughput"):
            out.append(str(_("No published peak throughput for this server's GPU: enter the GPU's TFLOPS to get the "
                             "compute time, the step time and the communication share.")))
        elif note.startswith("InfiniBand"):
            out.append(str(_("InfiniBand: the subnet manager's routing is modelled as the chosen routing mode.")))
        else:
            out.append(str(_("Flows sampled: %(how)s") % {"how": note}))
    return out


def binary_bytes(n) -> str:
    """A byte count as people read it: 1 KiB = 1,024 bytes, 1 MiB, 1 GiB, 1 TiB (nccl-tests prints sizes so)."""
    value = float(n or 0)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(value) < 1024:
            return f"{value:.0f} {unit}" if unit == "B" or value == int(value) else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.0f} TiB" if value == int(value) else f"{value:.1f} TiB"


def model_name(workload: dict[str, Any]) -> str:
    """The training model's published name (Llama 3 70B), never its key, or the collective's name."""
    key = workload.get("model")
    if key:
        preset = PRESETS.get(key)
        return workload.get("model_name") or (preset.name if preset else str(key))
    return label(COLLECTIVE_LABELS, workload.get("collective", ""))
