"""The scale-up domain of a design's server: how many GPUs share NVLink and at what bandwidth.

One function, `scale_up_domain(spec)`, so the rest of the model never reads the server's
scale-up fields itself. Today a domain is the server's own GPUs (an 8-GPU NVLink server);
rack-scale domains (NVL72) plug in here.

Bandwidth per GPU, one direction, from NVIDIA's NVLink page (nvidia.com/en-us/data-center/nvlink):
NVLink 3 (A100) 600 GB/s per GPU, NVLink 4 (H100/H200) 900 GB/s, NVLink 5 (Blackwell) 1,800 GB/s,
all quoted as total (both directions), so one direction is half. A server given without a
scale-up interconnect the table knows (an inline server) has no figure: its scale-up bandwidth
is taken as not limiting the scale-out collectives, and the result says so.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..spec import DesignSpec

# total (bidirectional) GB/s per GPU by NVLink generation, NVIDIA NVLink page
NVLINK_TOTAL_GBYTES = {"NVLINK 3": 600.0, "NVLINK 4": 900.0, "NVLINK 5": 1800.0}


@dataclass(frozen=True, slots=True)
class ScaleUpDomain:
    gpus: int  # GPUs per domain
    gbps_per_gpu: float | None  # one direction, Gb/s; None: not known, taken as not limiting
    interconnect: str  # e.g. "NVLink 4", "" when the server does not say

    @property
    def limiting(self) -> bool:
        return self.gbps_per_gpu is not None


def scale_up_domain(spec: DesignSpec) -> ScaleUpDomain:
    server = spec.server
    name = (server.scale_up or "").strip()
    total = NVLINK_TOTAL_GBYTES.get(" ".join(name.upper().split()))
    return ScaleUpDomain(gpus=max(1, int(server.gpus)),
                         gbps_per_gpu=None if total is None else total / 2 * 8,
                         interconnect=name)
