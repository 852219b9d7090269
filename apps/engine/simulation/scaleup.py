"""The scale-up domain of a design's server: how many GPUs share NVLink and at what bandwidth.

One function, `scale_up_domain(spec)`, so the rest of the model never reads the server's
scale-up fields itself. The domain's size, servers (compute trays) and bandwidth come from the
design's own domain (engine.scaleup.scale_up_domain): the server's GPUs for an in-server domain,
72 GPUs in 18 trays for a GB200 / GB300 NVL72 rack. Where the catalog gives no bandwidth, the
NVLink generation's published figure below is used.

Line rate per GPU, one direction, from NVIDIA's NVLink page (nvidia.com/en-us/data-center/nvlink):
NVLink 3 (A100) 600 GB/s per GPU, NVLink 4 (H100/H200) 900 GB/s, NVLink 5 (Blackwell) 1,800 GB/s,
all quoted as total (both directions), so one direction is half; 12, 18 and 18 links per GPU.

What NCCL reaches is less: its topology model gives each NVLink of a GPU a bandwidth by compute
capability (NVIDIA/nccl 2.30.7 src/graph/topo.h: SM80_NVLINK_BW 20.0, SM90_NVLINK_BW 20.6,
SM100_NVLINK_BW 40.1 GB/s), so a GPU's NVLink is 12 x 20.0 = 240 GB/s (A100), 18 x 20.6 = 370.8 GB/s
(H100 / H200) and 18 x 40.1 = 721.8 GB/s (Blackwell), 0.80-0.82 of the line rate. NCCL's maintainer
on H100: "450GB/s is the line rate. With the protocol overhead (~20%) NCCL can get an effective
NVLink bandwidth of 370GB/s, which you can observe as BusBw ... with NCCL_ALGO=RING" (NVIDIA/nccl-tests
issue 212). The model runs NVLink at NCCL's figure: a catalog bandwidth of a known generation is
scaled by the same ratio; a bandwidth of an unknown interconnect is taken at its line rate.

NVLink SHARP (NVLS): an in-server domain on NVSwitch of compute capability 9.0 or later (NVLink 4
and 5) offers NCCL's NVLS / NVLSTree algorithms (nccl.py); `nvls_heads` is the GPUs of one server.
A server given without a scale-up interconnect the table knows (an inline server) has no figure:
its scale-up bandwidth is taken as not limiting the scale-out collectives, and the result says so.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..scaleup import RACK_SCALE
from ..scaleup import scale_up_domain as design_scale_up_domain
from ..spec import DesignSpec

# total (bidirectional) GB/s per GPU by NVLink generation, NVIDIA NVLink page
NVLINK_TOTAL_GBYTES = {"NVLINK 3": 600.0, "NVLINK 4": 900.0, "NVLINK 5": 1800.0}
# (links per GPU, NCCL's GB/s per link (src/graph/topo.h), compute capability x 10)
NCCL_NVLINK = {"NVLINK 3": (12, 20.0, 80), "NVLINK 4": (18, 20.6, 90), "NVLINK 5": (18, 40.1, 100)}


def nccl_nvlink_gbytes(generation: str) -> float | None:
    """GB/s one direction NCCL reaches on one GPU's NVLink (links x NCCL's per-link figure)."""
    known = NCCL_NVLINK.get(" ".join(generation.upper().split()))
    return known[0] * known[1] if known else None


@dataclass(frozen=True, slots=True)
class ScaleUpDomain:
    gpus: int  # GPUs per domain
    servers: int  # servers (compute trays) per domain: 1 unless rack-scale
    gbps_per_gpu: float | None  # one direction, Gb/s, what NCCL reaches; None: not known, taken as not limiting
    interconnect: str  # e.g. "NVLink 4", "" when the server does not say
    line_gbps_per_gpu: float | None = None  # one direction, Gb/s, the published line rate
    compute_capability: int = 0  # x 10 (90 = Hopper), 0 when the interconnect is not a known NVLink
    nvls_heads: int = 0  # GPUs of one NVSwitch server NVLS spans; 0: no NVLS

    @property
    def limiting(self) -> bool:
        return self.gbps_per_gpu is not None


def scale_up_domain(spec: DesignSpec) -> ScaleUpDomain:
    domain = design_scale_up_domain(spec)
    name = (domain.interconnect or spec.server.scale_up or "").strip()
    key = " ".join(name.upper().split())
    total = domain.gb_s_per_gpu or NVLINK_TOTAL_GBYTES.get(key)
    links, per_link, cc = NCCL_NVLINK.get(key, (0, 0.0, 0))
    line = total / 2 * 8 if total else None
    reached = line * (links * per_link) / (NVLINK_TOTAL_GBYTES[key] / 2) if line and links else line
    gpus = max(1, int(domain.gpus))
    heads = gpus if cc >= 90 and domain.kind != RACK_SCALE and gpus > 1 else 0
    return ScaleUpDomain(gpus=gpus, servers=max(1, int(domain.servers)), gbps_per_gpu=reached,
                         interconnect=name, line_gbps_per_gpu=line, compute_capability=cc, nvls_heads=heads)
