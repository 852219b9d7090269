"""Published model dimensions of the workload presets, and the GPUs' published peak throughput.

Every figure comes from the model's own paper or released configuration (named per preset):
layers, hidden size, attention heads and key/value heads, the feed-forward (or per-expert)
intermediate size, vocabulary, and for mixture-of-experts models the routed experts, the
experts each token goes to (top-k), shared experts and the dense layers that come first.
Total and activated parameter counts are the published ones (they feed the data-parallel
gradient bytes and the compute time); nothing is fitted.

GPU peak dense throughput (no sparsity), from NVIDIA's data sheets: H100 / H200 SXM 989 TFLOPS
BF16, 1,979 TFLOPS FP8 (H100 Tensor Core GPU data sheet; H200 data sheet, same Hopper core);
B200 2,250 TFLOPS BF16 and 4,500 TFLOPS FP8 (DGX B200 data sheet: 72 PFLOPS FP8 training per
8 GPUs, which NVIDIA quotes with sparsity; dense is half). DeepSeek-V3's multi-head latent attention caches a compressed key/value; context-parallel bytes
count its full keys and values (128 heads x 128), an upper bound. A GPU not listed has no figure here:
the user enters it, and without it the step reports communication only.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ModelPreset:
    key: str
    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int  # dense feed-forward intermediate size (dense layers of a MoE model too)
    vocab: int
    params_b: float  # total parameters, billions
    active_params_b: float  # parameters a token goes through, billions (= params_b for dense models)
    experts: int = 0  # routed experts per MoE layer; 0 for a dense model
    top_k: int = 0
    shared_experts: int = 0
    expert_ffn: int = 0  # intermediate size of one expert
    dense_layers: int = 0  # leading layers with a dense FFN in a MoE model
    source: str = ""
    head_size: int = 0  # when the model's attention head is not hidden / heads (its config's head_dim)
    node_limit: int = 0  # nodes a token's experts may span (node-limited routing); 0: no limit published

    @property
    def moe(self) -> bool:
        return self.experts > 0

    @property
    def moe_layers(self) -> int:
        return self.layers - self.dense_layers if self.moe else 0

    @property
    def head_dim(self) -> int:
        return self.head_size or self.hidden // self.heads

    @property
    def expert_params(self) -> float:
        """Parameters held by the routed experts (they are sharded by expert parallelism)."""
        return float(self.moe_layers * self.experts * 3 * self.hidden * self.expert_ffn) if self.moe else 0.0


PRESETS: dict[str, ModelPreset] = {p.key: p for p in (
    ModelPreset("llama3-8b", "Llama 3 8B", layers=32, hidden=4096, heads=32, kv_heads=8, ffn=14336, vocab=128256,
                params_b=8.0, active_params_b=8.0,
                source="Llama 3 Herd of Models (arXiv 2407.21783), Table 3; Meta-Llama-3-8B config.json"),
    ModelPreset("llama3-70b", "Llama 3 70B", layers=80, hidden=8192, heads=64, kv_heads=8, ffn=28672, vocab=128256,
                params_b=70.6, active_params_b=70.6,
                source="Llama 3 Herd of Models (arXiv 2407.21783), Table 3; Meta-Llama-3-70B config.json"),
    ModelPreset("llama3-405b", "Llama 3.1 405B", layers=126, hidden=16384, heads=128, kv_heads=8, ffn=53248,
                vocab=128256, params_b=405.0, active_params_b=405.0,
                source="Llama 3 Herd of Models (arXiv 2407.21783), Table 3"),
    ModelPreset("gpt3-175b", "GPT-3 175B", layers=96, hidden=12288, heads=96, kv_heads=96, ffn=49152, vocab=50257,
                params_b=175.0, active_params_b=175.0,
                source="Language Models are Few-Shot Learners (arXiv 2005.14165), Table 2.1 (d_ff = 4 d_model)"),
    ModelPreset("deepseek-v3", "DeepSeek-V3 671B", layers=61, hidden=7168, heads=128, kv_heads=128, ffn=18432,
                vocab=129280, params_b=671.0, active_params_b=37.0, experts=256, top_k=8, shared_experts=1,
                expert_ffn=2048, dense_layers=3, head_size=128, node_limit=4,
                source="DeepSeek-V3 Technical Report (arXiv 2412.19437), sections 2.1.2, 3.2.2 (each token to at "
                       "most 4 nodes) and 4.2; DeepSeek-V3 config.json"),
    ModelPreset("mixtral-8x22b", "Mixtral 8x22B", layers=56, hidden=6144, heads=48, kv_heads=8, ffn=16384,
                vocab=32768, params_b=141.0, active_params_b=39.0, experts=8, top_k=2, expert_ffn=16384,
                source="Mistral AI, Mixtral 8x22B announcement and Mixtral-8x22B-v0.1 config.json"),
    ModelPreset("qwen3-235b-a22b", "Qwen3-235B-A22B", layers=94, hidden=4096, heads=64, kv_heads=4, ffn=12288,
                vocab=151936, params_b=235.0, active_params_b=22.0, experts=128, top_k=8, expert_ffn=1536, head_size=128,
                source="Qwen3 Technical Report (arXiv 2505.09388), Table 2; Qwen3-235B-A22B config.json"),
)}

# GPU model keyword (in the server's name or scale-up) -> peak dense TFLOPS by precision; see the module docstring.
GPU_PEAK_TFLOPS: tuple[tuple[str, dict[str, float]], ...] = (
    ("H100", {"bf16": 989.0, "fp8": 1979.0}),
    ("H200", {"bf16": 989.0, "fp8": 1979.0}),
    ("B200", {"bf16": 2250.0, "fp8": 4500.0}),
)


# GPU memory (HBM, GB) by GPU keyword: H100 SXM 80 GB (H100 Tensor Core GPU data sheet), H200 141 GB
# (H200 data sheet), B200 180 GB (DGX B200 data sheet: 1,440 GB of GPU memory over 8 GPUs).
GPU_MEMORY_GB: tuple[tuple[str, float], ...] = (("H100", 80.0), ("H200", 141.0), ("B200", 180.0))


def gpu_memory_gb(server_text: str) -> float | None:
    """The published memory of the GPU named in `server_text`, or None when not known."""
    text = server_text.upper()
    for key, gb in GPU_MEMORY_GB:
        if key in text:
            return gb
    return None


def gpu_peak_tflops(server_text: str, precision: str) -> float | None:
    """The published peak of the GPU named in `server_text`, or None when not known."""
    text = server_text.upper()
    for key, figures in GPU_PEAK_TFLOPS:
        if key in text:
            return figures.get(precision)
    return None
