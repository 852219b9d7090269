"""The performance chapter says how the job is split and scheduled and how expert tokens cross the fabric: the
inputs that move the step (pipeline schedule, node-limited expert routing) are named beside the step they give."""
from __future__ import annotations

from django.utils import translation

from apps.documents.chapters.performance import _parallelism_blocks

DEEPSEEK = {"tp": 1, "pp": 16, "dp": 128, "ep": 64, "pp_schedule": "dualpipe", "ep_node_limit": 4}


def text(workload: dict, language: str = "en") -> str:
    with translation.override(language):
        return " ".join(block.text for block in _parallelism_blocks(workload))


def test_dualpipe_and_the_node_limit_are_named_in_both_languages():
    english = text(DEEPSEEK)
    assert "TP 1, PP 16, DP 128, EP 64" in english and "DualPipe (DeepSeek-V3)" in english
    assert "at most 4 nodes" in english
    chinese = text(DEEPSEEK, "zh-hans")
    assert "流水线调度" in chinese and "最多到达 4 个节点" in chinese


def test_no_limit_interleaved_and_dense_models_say_what_applies():
    unlimited = text(dict(DEEPSEEK, ep_node_limit=0))
    assert "no node limit" in unlimited
    interleaved = text({"tp": 8, "pp": 4, "dp": 16, "ep": 1, "pp_schedule": "interleaved", "virtual_stages": 2})
    assert "Interleaved 1F1B, 2 model chunks per GPU" in interleaved and "Expert routing" not in interleaved
    assert text({}) == ""  # a collective run has no parallelism to state
