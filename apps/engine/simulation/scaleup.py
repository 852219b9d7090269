"""The scale-up domain of a design's server: how many GPUs share NVLink and at what bandwidth.

One function, `scale_up_domain(spec)`, so the rest of the model never reads the server's
scale-up fields itself. The domain's size, servers (compute trays) and bandwidth come from the
design's own domain (engine.scaleup.scale_up_domain): the server's GPUs for an in-server domain,
72 GPUs in 18 trays for a GB200 / GB300 NVL72 rack. Where the catalog gives no bandwidth, the
NVLink generation's published figure below is used.

Bandwidth per GPU, one direction, from NVIDIA's NVLink page (nvidia.com/en-us/data-center/nvlink):
NVLink 3 (A100) 600 GB/s per GPU, NVLink 4 (H100/H200) 900 GB/s, NVLink 5 (Blackwell) 1,800 GB/s,
all quoted as total (both directions), so one direction is half. A server given without a
scale-up interconnect the table knows (an inline server) has no figure: its scale-up bandwidth
is taken as not limiting the scale-out collectives, and the result says so.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..scaleup import scale_up_domain as design_scale_up_domain
from ..spec import DesignSpec

# total (bidirectional) GB/s per GPU by NVLink generation, NVIDIA NVLink page
NVLINK_TOTAL_GBYTES = {"NVLINK 3": 600.0, "NVLINK 4": 900.0, "NVLINK 5": 1800.0}


@dataclass(frozen=True, slots=True)
class ScaleUpDomain:
    gpus: int  # GPUs per domain
    servers: int  # servers (compute trays) per domain: 1 unless rack-scale
    gbps_per_gpu: float | None  # one direction, Gb/s; None: not known, taken as not limiting
    interconnect: str  # e.g. "NVLink 4", "" when the server does not say

    @property
    def limiting(self) -> bool:
        return self.gbps_per_gpu is not None


def scale_up_domain(spec: DesignSpec) -> ScaleUpDomain:
    domain = design_scale_up_domain(spec)
    name = (domain.interconnect or spec.server.scale_up or "").strip()
    total = domain.gb_s_per_gpu or NVLINK_TOTAL_GBYTES.get(" ".join(name.upper().split()))
    return ScaleUpDomain(gpus=max(1, int(domain.gpus)), servers=max(1, int(domain.servers)),
                         gbps_per_gpu=None if not total else total / 2 * 8,
                         interconnect=name)
