"""Training-job performance model on a planned fabric: parallelism -> collectives -> flow-level
time on the design's links, with ECMP / hash-aware / spraying routing and failures.

Entry points: `simulate(plan, workload) -> SimulationResult` and `simulate_alternatives(spec,
workload)`; `scale_up_domain(spec)` is the one place that reads the server's scale-up domain.
Module rules: presets.py (published model dimensions), workload.py (WORKLOAD.json and its
checks), collectives.py (byte formulas and flows), maxmin.py (progressive filling), network.py
(routing modes and failures), nccl.py (algorithms, latency, busbw), simulate.py (step time).

Compared with published measurements (how far apart, and why):
- nccl-tests All-Reduce on DGX H100 clusters (8 x 400G per node, no SHARP): NVIDIA reports a
  busbw of about 370-400 GB/s per GPU at large sizes for multi-node rings; the model's closed
  form on a non-blocking sprayed fabric is the server's NIC bandwidth, 3,200 Gb/s = 400 GB/s,
  minus the latency term: within 0-8 % of the measurement, the gap being NCCL's protocol overhead
  that a flow model leaves out.
- DeepSeek-V3 (arXiv 2412.19437, section 3.2.2 and the DeepEP repository): its All-to-All
  dispatch across nodes over 400G InfiniBand reaches about 40-46 GB/s per GPU (~320-370 Gb/s of
  a 400 Gb/s NIC) on its multi-plane fat-tree; the model's pairwise All-to-All on a non-blocking
  fabric with spraying reaches the NIC rate times the cross-server share, i.e. ~400 Gb/s per NIC
  at large EP groups: 8-25 % above the measurement, the gap being DeepEP's NVLink forwarding and
  kernel overheads.
- Meta's RoCE training fabric (Gangidi et al., SIGCOMM 2024, "RDMA over Ethernet for Distributed
  AI Training at Meta Scale"): ECMP with few flows left collectives at a fraction of line rate
  until Meta moved to more queue pairs and hash-aware ("E-ECMP") routing; the model shows the
  same ordering, ECMP <= hash-aware <= spraying, with the gap shrinking as flows per link grow.
"""
from .network import FAILURES, ROUTINGS, FabricModel
from .presets import PRESETS, ModelPreset
from .scaleup import ScaleUpDomain, scale_up_domain
from .simulate import DEFAULT_MAX_FLOWS, SimulationResult, simulate, simulate_alternatives
from .workload import ALGORITHMS, COLLECTIVES, PRECISIONS, ZERO, workload_from_dict

__all__ = [
    "ALGORITHMS", "COLLECTIVES", "DEFAULT_MAX_FLOWS", "FAILURES", "PRECISIONS", "PRESETS", "ROUTINGS", "ZERO",
    "FabricModel", "ModelPreset", "ScaleUpDomain", "SimulationResult", "scale_up_domain", "simulate",
    "simulate_alternatives", "workload_from_dict",
]
