"""The design document's wiring-proof chapter shows every tier's measure, in both languages."""
from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from apps.documents.chapters import wiring as chapter
from apps.documents.model import KeyValues
from apps.engine.plan import _plan, plan
from apps.engine.report import report
from tests.engine.builders import spec, switch


def rows(summary: dict, language: str) -> dict:
    with translation.override(language):
        built = chapter.build(SimpleNamespace(summary=summary))
    return {str(k): str(v) for block in built.blocks if isinstance(block, KeyValues) for k, v in block.rows}


def test_a_three_tier_document_shows_the_pod_pairs_and_the_links_per_pair_at_every_tier():
    summary = report(plan(spec(5_000, leaf=switch(64))))
    english = rows(summary, "en")
    assert english["Worst pod pair: core links shared / leaf uplinks of the smaller pod"] == "1,024 / 1,024"
    assert english["Links per spine–core pair (fewest / most)"] == "8 / 8"
    assert english["Links per core–pod pair (fewest / most)"] == "8 / 8"
    chinese = rows(summary, "zh-hans")
    assert chinese["最差的 Pod 对：共享的核心链路 / 较小 Pod 的 Leaf 上行链路"] == "1,024 / 1,024"
    assert "每对 Core–Pod 之间的链路数（最少 / 最多）" in chinese


def test_the_fewest_cores_document_names_the_pods_that_fall_short():
    summary = report(_plan(spec(5_000, leaf=switch(64)), progress=None, address=False, even=False))
    english = rows(summary, "en")
    assert english["Verdict"] == "blocking"
    assert english["Worst pod pair: core links shared / leaf uplinks of the smaller pod"] == "1,008 / 1,024"
    assert english["Links per core–pod pair (fewest / most)"] == "12 / 13"
