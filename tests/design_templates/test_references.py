"""Each built-in template generates through the engine and matches its published reference.

Both sides are pinned: the counts the reference publishes (as the seed file carries them) and what the
engine plans from the template's inputs on the seed catalog (design_template_counts(full=True) runs the
whole plan, as generating a version does). Sources (apps/design_templates/seed/templates.yaml):
- NVIDIA DGX SuperPOD RA, DGX H100 (RA-11333-001): Network Fabrics, Table 4 (4 SU: 127 nodes, 32 leaf,
  16 spine, 1,020 compute-and-UFM cables, 1,024 spine-leaf cables) and DGX SuperPOD Architecture,
  Table 3 (16 SU: 512 nodes, 128 leaf, 128 spine, 64 core, 4,096 cables per tier).
- NVIDIA DGX SuperPOD RA, DGX B200: Network Fabrics, Table 4 (the same 4-SU row).
- NVIDIA DGX SuperPOD RA, DGX GB200: 8 racks per SU, 18 compute trays and 9 NVLink switch trays per rack,
  4 ConnectX-7 400G per tray; its compute fabric's switches are drawn (Network Fabrics, Figure 9), never counted
  in its text, and "up to and beyond 128 racks with 9216 GPUs" names no switch count either.
- NVIDIA DGX SuperPOD RA, DGX B300 with Quantum-X800 InfiniBand (RA-11339-001), DGX SuperPOD Architecture,
  Table 3: 1, 2, 4, 8 and 18 SU of 72 nodes; 8 SU = 576 nodes, 4,608 GPUs, 64 leaf, 36 spine, 4,608 cables per tier.
- DeepSeek-AI, Insights into DeepSeek-V3 (ISCA 2025, arXiv:2505.09343): MPFT, 8 planes, 16,384
  endpoints, 768 switches.
- fabricweb's brief: 5,000 GPUs on 128x400G, 80 leaves, 64 spines.
"""
from __future__ import annotations

import pytest

from apps.design_templates.services import design_template_counts
from apps.engine.plan import size
from apps.engine.specio import spec_from_dict

pytestmark = pytest.mark.django_db

PUBLISHED = {
    "dgx-superpod-h100-4su": {"scale_units": 4, "servers": 127, "gpus": 1016, "leaf": 32, "spine": 16, "core": 0,
                              "server_leaf_links": 1020, "leaf_spine_links": 1024},
    "dgx-superpod-h100-16su": {"scale_units": 16, "servers": 512, "gpus": 4096, "leaf": 128, "spine": 128,
                               "core": 64, "server_leaf_links": 4096, "leaf_spine_links": 4096,
                               "spine_core_links": 4096},
    "dgx-superpod-b200-4su": {"scale_units": 4, "servers": 127, "gpus": 1016, "leaf": 32, "spine": 16, "core": 0,
                              "server_leaf_links": 1020, "leaf_spine_links": 1024},
    "dgx-superpod-gb200-nvl72-1su": {"racks": 8, "gpus": 576, "servers": 144, "nvlink_switch_trays": 72,
                                     "server_leaf_links": 576},
    "dgx-superpod-b300-xdr-8su": {"scale_units": 8, "servers": 576, "gpus": 4608, "leaf": 64, "spine": 36,
                                  "core": 0, "server_leaf_links": 4608, "leaf_spine_links": 4608},
    "deepseek-v3-multi-plane-16k": {"gpus": 16384, "planes": 8, "tiers": 2, "switches": 768},
    "roce-5000-gpus": {"gpus": 5000, "leaf": 80, "spine": 64},
}

GENERATED = {
    # 127 DGX x 8 ports; NVIDIA's 1,020 adds the UFM appliance's 4 links (not in the catalog).
    "dgx-superpod-h100-4su": {"scale_units": 4, "servers": 127, "gpus": 1016, "tiers": 2, "leaf": 32, "spine": 16,
                              "core": 0, "server_leaf_links": 1016, "leaf_spine_links": 1024},
    "dgx-superpod-h100-16su": {"scale_units": 16, "servers": 512, "gpus": 4096, "tiers": 3, "leaf": 128,
                               "spine": 128, "core": 64, "server_leaf_links": 4096, "leaf_spine_links": 4096,
                               "spine_core_links": 4096},
    "dgx-superpod-b200-4su": {"scale_units": 4, "servers": 127, "gpus": 1016, "tiers": 2, "leaf": 32, "spine": 16,
                              "core": 0, "server_leaf_links": 1016, "leaf_spine_links": 1024},
    # Leaf and spine counts are this tool's rule (not published): one scale unit of 8 NVL72 racks whose leaves
    # are shared by tray slot (18 leaves of 32 down, 32 up), 16 spines (the divisor of 32 from 9); a leaf per
    # rail of each rack would be 32 leaves + 9 spines.
    "dgx-superpod-gb200-nvl72-1su": {"racks": 8, "gpus": 576, "servers": 144, "nvlink_switch_trays": 72,
                                     "server_leaf_links": 576, "scale_units": 1, "leaf": 18, "spine": 16,
                                     "leaf_spine_links": 576},
    "dgx-superpod-b300-xdr-8su": {"scale_units": 8, "servers": 576, "gpus": 4608, "tiers": 2, "leaf": 64,
                                  "spine": 36, "core": 0, "server_leaf_links": 4608, "leaf_spine_links": 4608},
    # 8 planes of 64 leaves and 32 spines.
    "deepseek-v3-multi-plane-16k": {"gpus": 16384, "servers": 2048, "planes": 8, "tiers": 2, "leaf": 512,
                                    "spine": 256, "core": 0, "switches": 768, "server_leaf_links": 16384,
                                    "leaf_spine_links": 16384},
    "roce-5000-gpus": {"gpus": 5000, "servers": 625, "scale_units": 10, "tiers": 2, "leaf": 80, "spine": 64,
                       "core": 0, "server_leaf_links": 5000, "leaf_spine_links": 5120},
}

# Where the generated counts may differ from the published ones, and the words that explain it.
EXPLAINED = {
    ("dgx-superpod-h100-4su", "server_leaf_links"): "UFM",
    ("dgx-superpod-b200-4su", "server_leaf_links"): "UFM",
}


def test_every_built_in_template_is_pinned(templates):
    assert set(templates) == set(PUBLISHED) == set(GENERATED)


@pytest.mark.parametrize("slug", sorted(PUBLISHED))
def test_template_carries_the_counts_its_reference_publishes(templates, slug):
    template = templates[slug]
    assert template.published_counts == PUBLISHED[slug]
    assert template.reference_title


@pytest.mark.parametrize("slug", sorted(GENERATED))
def test_template_generates_through_the_engine_and_matches_its_reference(templates, slug):
    template = templates[slug]
    counts = design_template_counts(template=template, full=True)
    assert {key: counts.get(key) for key in GENERATED[slug]} == GENERATED[slug]
    for key, published in template.published_counts.items():
        if counts.get(key) != published:
            word = EXPLAINED.get((slug, key))
            assert word is not None, f"{slug}.{key}: generated {counts.get(key)}, published {published}, unexplained"
            assert word in template.leaves_out


def test_superpod_4su_node_cables_differ_by_the_ufm_appliances_links(templates):
    template = templates["dgx-superpod-h100-4su"]
    counts = design_template_counts(template=template, full=True)
    assert template.published_counts["server_leaf_links"] - counts["server_leaf_links"] == 4
    assert counts["server_leaf_links"] == 127 * 8


def test_deepseek_template_says_dgx_h100_stands_in_for_h800(templates):
    template = templates["deepseek-v3-multi-plane-16k"]
    assert "H800" in template.leaves_out and "DGX H100" in template.leaves_out
    assert "H800" in template.text("leaves_out", "zh-hans")


def test_gb200_template_says_its_switch_counts_are_not_published(templates):
    template = templates["dgx-superpod-gb200-nvl72-1su"]
    assert "leaf" not in template.published_counts and "spine" not in template.published_counts
    assert "not in the RA's text" in template.leaves_out
    assert "tray slot" in template.leaves_out and "托盘位置" in template.text("leaves_out", "zh-hans")
    assert "18 leaves and 16 spines" in template.leaves_out and "32 leaves and 9 spines" in template.leaves_out


# NVIDIA's DGX B300 XDR RA, Table 3, every row: (SU, nodes, leaf, spine, node-leaf cables, leaf-spine cables).
B300_XDR_TABLE = [(1, 72, 8, 4, 576, 576), (2, 144, 16, 8, 1152, 1152), (4, 288, 32, 18, 2304, 2304),
                  (8, 576, 64, 36, 4608, 4608), (18, 1296, 144, 72, 10368, 10368)]


@pytest.mark.parametrize("scale_units, nodes, leaf, spine, node_leaf, leaf_spine", B300_XDR_TABLE)
def test_every_row_of_the_b300_xdr_table_sizes_as_nvidia_publishes(scale_units, nodes, leaf, spine, node_leaf,
                                                                    leaf_spine):
    # 4 SU takes 18 spines, not the 16 that 2,304 uplinks over 144 ports would need: 16 does not divide a leaf's 72
    # uplinks, 18 does (4 links to each). The sizing makes the same choice NVIDIA's table does.
    sized = size(spec_from_dict({"gpus": nodes * 8, "server": "90SF02H1-M00030",
                                 "leaf": {"sku": "Q3400-RA", "breakout": "2x800G"}}))
    assert (sized.scale_units, sized.servers) == (scale_units, nodes)
    assert (sized.switches["leaf"], sized.switches["spine"], sized.switches["core"]) == (leaf, spine, 0)
    assert (sized.links_by_tier["server-leaf"], sized.links_by_tier["leaf-spine"]) == (node_leaf, leaf_spine)


def test_b300_template_says_which_server_stands_in_and_why_36_spines(templates):
    template = templates["dgx-superpod-b300-xdr-8su"]
    assert "DGX B300" in template.leaves_out and "XA NB3I-E12" in template.leaves_out
    assert "36 spines" in template.leaves_out and "36 台脊交换机" in template.text("leaves_out", "zh-hans")
