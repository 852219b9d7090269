"""WORKLOAD.json: one collective, or a training job (model preset, batch, precision, parallelism).

    {"collective": "all-reduce", "bytes": 34359738368, "ranks": "all", "routing": "spray",
     "algorithm": "ring"}
        collective: all-reduce | all-gather | reduce-scatter | all-to-all; bytes > 0 (nccl-tests'
        size: the buffer of one rank); ranks: "all" (every GPU of the design, one rank per GPU) or a
        count; routing: ecmp | hash-aware | spray (default ecmp); algorithm: auto (what NCCL would
        pick, the default) | ring | tree (All-Reduce) | pat (All-Gather, Reduce-Scatter) | pairwise
        (All-to-All); optional "sizes": [bytes, ...] for the nccl-tests table (default powers of 4
        from 1 MiB to 16 GiB), "seed", "failures": ["spine", ...], "switch_latency_ns" and
        "nic_latency_ns" (both or neither: a network step then costs its path's hops, nccl.py),
        "placement": scheduler (default: the job's servers in a seeded random order, as the traffic
        analysis' headline) | plan, "qps_per_connection": NCCL_IB_QPS_PER_CONNECTION (default the
        design's own setting: 4 on RoCE, roce/host.py; 1 on InfiniBand, NCCL's default).

    {"model": "llama3-70b", "seq_len": 8192, "global_batch": 1024, "micro_batch": 1,
     "precision": "bf16", "tp": 8, "pp": 4, "cp": 1, "ep": 1, "dp": 156, "zero": "zero1",
     "gpus": 4992, "routing": "ecmp", "mfu": 0.4, "gpu_tflops": 989, "overlap": 1.0,
     "failures": ["spine"], "placement": "scheduler"}
        every key but "model" optional. Defaults: TP = the scale-up domain for a dense model (1 for
        MoE), PP by model size (1 up to 20 B parameters, 4 up to 100 B, 8 up to 250 B, else 16),
        CP 1, EP the largest power of two <= min(experts, 64) that divides DP x CP, DP = the
        largest that fits the design's GPUs; "gpus" (the job's GPUs) then TP x CP x PP x DP.
        zero: zero1 (gradient Reduce-Scatter + parameter All-Gather), fsdp (two parameter
        All-Gathers + gradient Reduce-Scatter), none (gradient All-Reduce). pp_schedule: 1f1b |
        interleaved (virtual_stages chunks) | dualpipe (DeepSeek-V3: even PP and micro-batches, two
        parameter copies, PP + 1 micro-batches of activations, ep_overlap 1 by default). ep_node_limit:
        nodes a token's experts may span (the model's published limit by default, DeepSeek-V3 4; 0 none).

Rules (a field-level message each, SpecError, nothing computed): TP must divide the scale-up
domain's GPUs; TP x CP x PP x DP must equal the job's GPUs, which may not exceed the design's;
EP must divide DP x CP and the model's experts (and is 1 for a dense model); PP may not exceed
the model's layers; global_batch must be a multiple of DP x micro_batch.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec import SpecError
from .network import FAILURES, ROUTINGS
from .presets import PRESETS, ModelPreset
from .scaleup import ScaleUpDomain

COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")
ALGORITHMS = {"all-reduce": ("auto", "ring", "tree"), "all-gather": ("auto", "ring", "pat"),
              "reduce-scatter": ("auto", "ring", "pat"), "all-to-all": ("auto", "pairwise")}
PRECISIONS = ("bf16", "fp8")
ZERO = ("zero1", "fsdp", "none")
PLACEMENTS = ("plan", "scheduler")
PP_SCHEDULES = ("1f1b", "interleaved", "dualpipe")
MAX_BYTES = 1 << 42
DEFAULT_SIZES = tuple(1 << k for k in range(20, 35, 2))  # 1 MiB .. 16 GiB
MAX_SIZES = 24


@dataclass(frozen=True, slots=True)
class CollectiveJob:
    collective: str
    bytes: int
    ranks: int  # GPUs taking part (the first ranks GPUs in placement order)
    routing: str = "ecmp"
    algorithm: str = "auto"
    sizes: tuple[int, ...] = DEFAULT_SIZES
    seed: int = 0
    failures: tuple[str, ...] = ()
    placement: str = "scheduler"
    switch_latency_ns: float | None = None
    nic_latency_ns: float | None = None
    qps: int | None = None  # NCCL_IB_QPS_PER_CONNECTION; None: the design's own setting

    @property
    def hop_latency(self) -> tuple[float, float] | None:
        return _hops(self)


@dataclass(frozen=True, slots=True)
class Parallelism:
    tp: int
    pp: int
    dp: int
    cp: int = 1
    ep: int = 1

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp * self.cp


@dataclass(frozen=True, slots=True)
class TrainingJob:
    model: ModelPreset
    parallelism: Parallelism
    seq_len: int = 8192
    global_batch: int = 1024
    micro_batch: int = 1
    precision: str = "bf16"
    zero: str = "zero1"
    routing: str = "ecmp"
    mfu: float = 0.4
    gpu_tflops: float | None = None
    overlap: float = 1.0  # share of the compute time the DP collectives may hide behind
    seed: int = 0
    failures: tuple[str, ...] = ()
    placement: str = "scheduler"
    defaults: tuple[str, ...] = field(default=())  # the fields that took their default
    switch_latency_ns: float | None = None
    nic_latency_ns: float | None = None
    qps: int | None = None  # NCCL_IB_QPS_PER_CONNECTION; None: the design's own setting
    pp_schedule: str = "1f1b"  # 1f1b | interleaved
    virtual_stages: int = 1  # model chunks per GPU (interleaved schedule)
    ep_overlap: float = 0.0  # share of the expert All-to-All hidden behind compute (DualPipe-style)
    ep_node_limit: int = 0  # nodes a token's experts may span (node-limited routing, one copy per node); 0: none

    @property
    def hop_latency(self) -> tuple[float, float] | None:
        return _hops(self)


def _hops(job) -> tuple[float, float] | None:
    """(switch, NIC) ns when both are given: network steps then cost their path's hops (nccl.py)."""
    if job.switch_latency_ns is None or job.nic_latency_ns is None:
        return None
    return float(job.switch_latency_ns), float(job.nic_latency_ns)


MAX_LATENCY_NS = 100_000


def _latencies(errors: dict, data: dict) -> tuple[float | None, float | None]:
    switch = _float(errors, data, "switch_latency_ns", None, 0, MAX_LATENCY_NS)
    nic = _float(errors, data, "nic_latency_ns", None, 0, MAX_LATENCY_NS)
    if (switch is None) != (nic is None) and not errors.get("switch_latency_ns") and not errors.get("nic_latency_ns"):
        errors["switch_latency_ns" if switch is None else "nic_latency_ns"] = [
            "give both the switch and the NIC latency, or neither (NCCL's per-step figure is used then)"]
    return switch, nic


def _int(errors: dict, data: dict, name: str, default: int | None, low: int, high: int) -> int | None:
    value = data.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        errors[name] = ["must be a whole number"]
        return None
    if not low <= int(value) <= high:
        errors[name] = [f"must be between {low:,} and {high:,}"]
        return None
    return int(value)


def _float(errors: dict, data: dict, name: str, default: float | None, low: float, high: float) -> float | None:
    value = data.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        errors[name] = ["must be a number"]
        return None
    if not low <= float(value) <= high:
        errors[name] = [f"must be between {low:g} and {high:g}"]
        return None
    return float(value)


def _choice(errors: dict, data: dict, name: str, default: str, choices: tuple[str, ...]) -> str:
    value = data.get(name, default)
    if value not in choices:
        errors[name] = [f"must be one of {', '.join(choices)}"]
        return default
    return value


def _failures(errors: dict, data: dict) -> tuple[str, ...]:
    value = data.get("failures", [])
    if not isinstance(value, list) or any(v not in FAILURES for v in value):
        errors["failures"] = [f"must be a list of {', '.join(FAILURES)}"]
        return ()
    return tuple(dict.fromkeys(value))


def workload_from_dict(data: Any, *, design_gpus: int, domain: ScaleUpDomain, tiers: int | None = None,
                       gpu_memory_gb: float | None = None) -> CollectiveJob | TrainingJob:
    """Parse and check WORKLOAD.json against a design; SpecError with field messages on bad input.
    `tiers`: the fabric's tiers (no core switch to fail below 3); `gpu_memory_gb`: the GPU's memory for
    the memory check (skipped when None)."""
    if not isinstance(data, dict):
        raise SpecError({"workload": ["must be a JSON object with \"collective\" or \"model\""]})
    if tiers is not None and tiers < 3 and "core" in (data.get("failures") or []):
        raise SpecError({"failures": [f"a {tiers}-tier fabric has no core switch to fail"]})
    if "collective" in data:
        return _collective(data, design_gpus)
    if "model" in data:
        job = _training(data, design_gpus, domain)
        if gpu_memory_gb:
            _memory_check(job, gpu_memory_gb)
        return job
    raise SpecError({"workload": ["give \"collective\" (one collective) or \"model\" (a training job)"]})


# Bytes per parameter in mixed-precision training with Adam (ZeRO paper, Rajbhandari et al. 2020, section 3.1):
# BF16 weights 2 + BF16 gradients 2 + FP32 master weights, momentum and variance 12.
WEIGHT_BYTES, GRAD_BYTES, OPTIMIZER_BYTES = 2, 2, 12
# Activations of one transformer layer for one micro-batch with sequence parallelism and selective
# recomputation: 34 s b h / TP bytes (Korthikanti et al. 2022, "Reducing Activation Recomputation in
# Large Transformer Models", Table 2); context parallelism divides s.
ACTIVATION_BYTES_PER_SBH = 34
# The longest sequence per context-parallel rank accepted: Llama 3 trained its 128K-token context with
# CP 16 (Llama 3 Herd of Models, section 3.3.2), 8K tokens per rank; 128K per rank is 16x that.
MAX_TOKENS_PER_CP_RANK = 131_072


def memory_per_gpu(job: "TrainingJob") -> tuple[float, float]:
    """(model state, activations) bytes per GPU: parameters, gradients and optimizer state of the GPU's
    shard (ZeRO-1 shards the optimizer over DP x CP, FSDP everything), and the activations the first
    pipeline stage holds under 1F1B (min(PP, micro-batches) micro-batches of its L / PP layers)."""
    m, p = job.model, job.parallelism
    dense = m.params_b * 1e9 - m.expert_params
    params = dense / (p.tp * p.pp) + m.expert_params / (p.ep * p.tp * p.pp)
    shard = p.dp * p.cp
    if job.zero == "none":
        state = params * (WEIGHT_BYTES + GRAD_BYTES + OPTIMIZER_BYTES)
    elif job.zero == "zero1":
        state = params * (WEIGHT_BYTES + GRAD_BYTES + OPTIMIZER_BYTES / shard)
    else:
        state = params * (WEIGHT_BYTES + GRAD_BYTES + OPTIMIZER_BYTES) / shard
    micro_batches = max(1, job.global_batch // (p.dp * job.micro_batch))
    layer = ACTIVATION_BYTES_PER_SBH * job.seq_len * job.micro_batch * m.hidden / (p.tp * p.cp)
    in_flight = min(p.pp, micro_batches)
    if job.pp_schedule == "dualpipe":
        # two copies of the parameters, peak activations of PP + 1 micro-batches (DeepSeek-V3 report, Table 2)
        state *= 2
        in_flight = min(p.pp + 1, micro_batches)
    activations = layer * -(-m.layers // p.pp) * in_flight
    return state, activations


def _memory_check(job: "TrainingJob", gpu_memory_gb: float) -> None:
    state, activations = memory_per_gpu(job)
    p = job.parallelism
    limit = gpu_memory_gb * 1e9
    errors: dict[str, list[str]] = {}
    if state > limit:
        errors["tp"] = [f"the model's parameters, gradients and optimizer state need {state / 1e9:,.0f} GB per GPU "
                        f"at TP {p.tp} x PP {p.pp} (EP {p.ep}, {job.zero}), more than the GPU's "
                        f"{gpu_memory_gb:g} GB: raise TP, PP or EP, or shard with FSDP"]
    layer = ACTIVATION_BYTES_PER_SBH * job.seq_len * job.micro_batch * job.model.hidden / (p.tp * p.cp)
    if layer > limit:
        errors["micro_batch"] = [f"one micro-batch of {job.micro_batch:,} x {job.seq_len:,} tokens needs "
                                 f"{layer / 1e9:,.0f} GB of activations per layer per GPU, more than the GPU's "
                                 f"{gpu_memory_gb:g} GB: lower the micro-batch or raise TP / CP"]
    if errors:
        raise SpecError(errors)


def _collective(data: dict, design_gpus: int) -> CollectiveJob:
    errors: dict[str, list[str]] = {}
    known = {"collective", "bytes", "ranks", "routing", "algorithm", "sizes", "seed", "failures", "placement",
             "switch_latency_ns", "nic_latency_ns", "qps_per_connection"}
    for name in sorted(set(data) - known):
        errors[name] = ["unknown field"]
    collective = _choice(errors, data, "collective", "all-reduce", COLLECTIVES)
    size = _int(errors, data, "bytes", None, 1, MAX_BYTES)
    if size is None and "bytes" not in errors:
        errors["bytes"] = ["required"]
    ranks_raw = data.get("ranks", "all")
    ranks = design_gpus if ranks_raw == "all" else _int(errors, {"ranks": ranks_raw}, "ranks", None, 2, design_gpus)
    routing = _choice(errors, data, "routing", "ecmp", ROUTINGS)
    algorithm = _choice(errors, data, "algorithm", "auto", ALGORITHMS[collective])
    sizes = data.get("sizes", list(DEFAULT_SIZES))
    if (not isinstance(sizes, list) or not 1 <= len(sizes) <= MAX_SIZES
            or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= MAX_BYTES for s in sizes)):
        errors["sizes"] = [f"must be a list of 1 to {MAX_SIZES} byte counts between 1 and {MAX_BYTES:,}"]
        sizes = list(DEFAULT_SIZES)
    seed = _int(errors, data, "seed", 0, 0, 2**32 - 1)
    failures = _failures(errors, data)
    placement = _choice(errors, data, "placement", "scheduler", PLACEMENTS)
    switch_ns, nic_ns = _latencies(errors, data)
    qps = _int(errors, data, "qps_per_connection", None, 1, 64)
    if design_gpus < 2:
        errors["ranks"] = ["the design has fewer than 2 GPUs"]
    if errors:
        raise SpecError(errors)
    return CollectiveJob(collective=collective, bytes=int(size), ranks=int(ranks), routing=routing,
                         algorithm=algorithm, sizes=tuple(sorted(set(int(s) for s in sizes))), seed=int(seed),
                         failures=failures, placement=placement, switch_latency_ns=switch_ns, nic_latency_ns=nic_ns,
                         qps=qps)


def default_pp(model: ModelPreset) -> int:
    b = model.params_b
    return 1 if b <= 20 else 4 if b <= 100 else 8 if b <= 250 else 16


def _training(data: dict, design_gpus: int, domain: ScaleUpDomain) -> TrainingJob:
    errors: dict[str, list[str]] = {}
    known = {"model", "seq_len", "global_batch", "micro_batch", "precision", "tp", "pp", "cp", "ep", "dp", "zero",
             "gpus", "routing", "mfu", "gpu_tflops", "overlap", "seed", "failures", "placement", "switch_latency_ns",
             "nic_latency_ns", "qps_per_connection", "pp_schedule", "virtual_stages", "ep_overlap", "ep_node_limit"}
    for name in sorted(set(data) - known):
        errors[name] = ["unknown field"]
    model = PRESETS.get(data.get("model"))
    if model is None:
        errors["model"] = [f"must be one of {', '.join(PRESETS)}"]
        raise SpecError(errors)
    defaults = [k for k in ("tp", "pp", "cp", "ep", "dp", "gpus") if data.get(k) in (None, "")]
    clean = {k: v for k, v in data.items() if v not in (None, "")}
    tp = _int(errors, clean, "tp", 1 if model.moe else domain.gpus, 1, 1024)
    pp = _int(errors, clean, "pp", default_pp(model), 1, 1024)
    cp = _int(errors, clean, "cp", 1, 1, 1024)
    gpus = _int(errors, clean, "gpus", None, 1, design_gpus) if "gpus" in clean else None
    if errors:
        raise SpecError(errors)
    if tp > domain.gpus or domain.gpus % tp:
        errors["tp"] = [f"TP {tp} must divide the scale-up domain of {domain.gpus} GPUs (tensor parallelism "
                        "stays inside a domain)"]
    if pp > model.layers:
        errors["pp"] = [f"PP {pp} is more stages than the model's {model.layers} layers"]
    base = tp * pp * cp
    if "dp" in clean:
        dp = _int(errors, clean, "dp", None, 1, 1 << 20)
    else:
        dp = max(1, (gpus or design_gpus) // base)
    if dp is not None and gpus is None:
        gpus = base * dp
    if dp is not None and base * dp != gpus:
        errors["dp"] = [f"TP x CP x PP x DP = {base * dp:,}, not the job's {gpus:,} GPUs"]
    elif gpus is not None and gpus > design_gpus:
        errors["dp"] = [f"TP x CP x PP x DP = {gpus:,} is more than the design's {design_gpus:,} GPUs"]
    if gpus is not None and gpus > design_gpus and "dp" not in errors:
        errors["gpus"] = [f"the design has {design_gpus:,} GPUs"]
    ep_default = 1
    if model.moe and dp:
        ep_default = 1
        while ep_default * 2 <= min(model.experts, 64) and (dp * cp) % (ep_default * 2) == 0:
            ep_default *= 2
    ep = _int(errors, clean, "ep", ep_default, 1, 4096)
    if ep is not None and dp is not None and ep > 1:
        if not model.moe:
            errors["ep"] = ["expert parallelism needs a mixture-of-experts model"]
        elif (dp * cp) % ep or model.experts % ep:
            errors["ep"] = [f"EP {ep} must divide DP x CP = {dp * cp:,} and the model's {model.experts} experts"]
    seq_len = _int(errors, clean, "seq_len", 8192, 128, 1 << 20)
    micro = _int(errors, clean, "micro_batch", 1, 1, 1024)
    batch = _int(errors, clean, "global_batch", None, 1, 1 << 24) if "global_batch" in clean else None
    if batch is None and dp is not None and micro is not None and "global_batch" not in errors:
        batch = dp * micro * max(1, 4 * pp)  # enough micro-batches to fill the pipeline
    if batch is not None and dp and micro and batch % (dp * micro):
        errors["global_batch"] = [f"must be a multiple of DP x micro_batch = {dp * micro:,}"]
    if seq_len is not None and cp and seq_len % cp:
        errors["cp"] = [f"CP {cp} must divide the sequence length {seq_len:,}"]
    elif seq_len is not None and cp and seq_len // cp > MAX_TOKENS_PER_CP_RANK:
        errors["seq_len"] = [f"{seq_len:,} tokens over CP {cp} is {seq_len // cp:,} tokens per GPU, above "
                             f"{MAX_TOKENS_PER_CP_RANK:,}: raise CP (Llama 3 trained 128K tokens with CP 16)"]
    precision = _choice(errors, clean, "precision", "bf16", PRECISIONS)
    zero = _choice(errors, clean, "zero", "zero1", ZERO)
    routing = _choice(errors, clean, "routing", "ecmp", ROUTINGS)
    mfu = _float(errors, clean, "mfu", 0.4, 0.01, 1.0)
    tflops = _float(errors, clean, "gpu_tflops", None, 1.0, 1e6)
    overlap = _float(errors, clean, "overlap", 1.0, 0.0, 1.0)
    seed = _int(errors, clean, "seed", 0, 0, 2**32 - 1)
    failures = _failures(errors, clean)
    placement = _choice(errors, clean, "placement", "scheduler", PLACEMENTS)
    switch_ns, nic_ns = _latencies(errors, clean)
    qps = _int(errors, clean, "qps_per_connection", None, 1, 64)
    schedule = _choice(errors, clean, "pp_schedule", "1f1b", PP_SCHEDULES)
    virtual = _int(errors, clean, "virtual_stages", 2 if schedule == "interleaved" else 1, 1, 64)
    if schedule == "1f1b" and virtual not in (None, 1):
        errors["virtual_stages"] = ["1F1B runs one model chunk per GPU: choose the interleaved schedule"]
    elif schedule == "dualpipe" and virtual not in (None, 1):
        errors["virtual_stages"] = ["DualPipe holds its two model chunks per GPU by design: leave chunks at 1"]
    elif schedule == "dualpipe" and pp and (pp < 2 or pp % 2):
        errors["pp_schedule"] = [f"DualPipe needs an even number of pipeline stages, not PP {pp} "
                                 "(DeepSeek-V3 report, section 3.2.1)"]
    elif (schedule == "dualpipe" and batch is not None and dp and micro and "global_batch" not in errors
          and (batch // (dp * micro)) % 2):
        errors["global_batch"] = [f"DualPipe needs an even number of micro-batches, not {batch // (dp * micro):,} "
                                  "(DeepSeek-V3 report, section 3.2.1)"]
    elif virtual and pp and model.layers < pp * virtual:
        errors["virtual_stages"] = [f"PP {pp} x {virtual} chunks is more than the model's {model.layers} layers"]
    # DualPipe overlaps the expert All-to-All with the paired chunk's compute ("near-zero all-to-all
    # communication overhead", DeepSeek-V3 report, section 3.2.1): fully hidden unless stated otherwise
    ep_overlap = _float(errors, clean, "ep_overlap", 1.0 if schedule == "dualpipe" else 0.0, 0.0, 1.0)
    node_limit = _int(errors, clean, "ep_node_limit", model.node_limit, 0, 1024)
    if node_limit and not model.moe:
        errors["ep_node_limit"] = ["node-limited routing needs a mixture-of-experts model: leave it at 0"]
    if batch is not None and dp and micro and pp > 1 and batch // (dp * micro) < pp and "global_batch" not in errors:
        errors["global_batch"] = [f"{batch // (dp * micro):,} micro-batches per step cannot fill {pp} pipeline "
                                  f"stages: the global batch must be at least DP x micro-batch x PP = "
                                  f"{dp * micro * pp:,}"]
    if errors:
        raise SpecError(errors)
    return TrainingJob(model=model, parallelism=Parallelism(tp=tp, pp=pp, dp=dp, cp=cp, ep=ep), seq_len=seq_len,
                       global_batch=batch, micro_batch=micro, precision=precision, zero=zero, routing=routing,
                       mfu=mfu, gpu_tflops=tflops, overlap=overlap, seed=seed, failures=failures,
                       placement=placement, defaults=tuple(defaults), switch_latency_ns=switch_ns,
                       nic_latency_ns=nic_ns, qps=qps, pp_schedule=schedule, virtual_stages=virtual,
                       ep_overlap=ep_overlap, ep_node_limit=node_limit)
