"""Training-job performance model on a planned fabric: parallelism -> collectives -> flow-level
time on the design's links, with ECMP / hash-aware / spraying routing and failures.

Entry points: `simulate(plan, workload) -> SimulationResult` and `simulate_alternatives(spec,
workload)`; `scale_up_domain(spec)` is the one place that reads the server's scale-up domain.
Module rules: presets.py (published model dimensions), workload.py (WORKLOAD.json and its
checks), collectives.py (byte formulas and flows), traffic/maxmin.py (progressive filling, shared with the traffic analysis), network.py
(routing modes, spraying as bundles, failures), nccl.py (algorithms, latency, busbw), simulate.py (step time).

Compared with published measurements (how far apart, and why):
- nccl-tests All-Reduce, H100 SXM servers with 8 x 400G NDR InfiniBand: a cluster-validation
  guide (saturncloud.io/blog/crusoe-nccl-cluster-validation) expects a busbw of 400-450 GB/s at
  8 GB and more. The model's closed form on a non-blocking fabric is the server's NIC bandwidth,
  8 x 400 Gb/s = 400 GB/s, minus the latency term (tests/engine/test_simulation.py): at the low
  end of the measured range; measurements above 400 GB/s come from in-network reduction (SHARP /
  NVLS, which halve the bytes each NIC sends) or two-node runs, which the model does not offer.
- DeepSeek's DeepEP (github.com/deepseek-ai/DeepEP, docs/legacy.md, H800 with one ConnectX-7
  400 Gb/s NIC per GPU): dispatch "bottleneck bandwidth" 43 / 58 / 51 GB/s at EP 16 / 32 / 64, counting one
  copy of a token per node it reaches. The model's node-limited dispatch (experts.py: one copy per node over
  the fabric, NVLink forwarding at the same time) reports the same quantity: 11-16 % above at EP 32 / 64
  (NICs at line rate, no kernel overhead), 31 % above at EP 16 where NVLink forwarding bounds the kernel.
- Meta's RoCE training fabric (Gangidi et al., "RDMA over Ethernet for Distributed AI Training
  at Meta Scale", SIGCOMM 2024): E-ECMP with queue-pair scaling made All-Reduce up to 40 % faster
  than 1-QP ECMP. The model's rings (traffic/rings.py: rank order, 2 NCCL channels per NIC, each
  queue pair its own flow) give 1.68x on a 2,048-GPU 2-tier fabric with a random placement, and
  order ECMP < hash-aware < spraying; docs/validation.md lists these comparisons with their ratios.
"""
from .network import FAILURES, ROUTINGS, FabricModel
from .presets import PRESETS, ModelPreset
from .scaleup import ScaleUpDomain, scale_up_domain
from .simulate import DEFAULT_MAX_FLOWS, SimulationResult, SimulationTimeLimit, simulate, simulate_alternatives
from .workload import ALGORITHMS, COLLECTIVES, PRECISIONS, ZERO, workload_from_dict

__all__ = [
    "ALGORITHMS", "COLLECTIVES", "DEFAULT_MAX_FLOWS", "FAILURES", "PRECISIONS", "PRESETS", "ROUTINGS", "ZERO",
    "FabricModel", "ModelPreset", "ScaleUpDomain", "SimulationResult", "SimulationTimeLimit", "scale_up_domain", "simulate",
    "simulate_alternatives", "workload_from_dict",
]
