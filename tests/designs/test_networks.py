"""A design with its front-end, storage and out-of-band networks: API, generation, stored rows, bad input.

Worked example on seed parts: 32 DGX H100 (256 GPUs) on SN5600; front-end and storage on SN5600 in
2x400G (each DGX's pair of in-band and of storage ports, as in NVIDIA's DGX SuperPOD reference
architecture), 8 storage nodes, and a 48-port 1G management switch per rack.
"""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import SwitchModel
from apps.designs.models import BomLineRecord, Design, DesignVersion, DeviceRecord, Job, LinkRecord
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db


def networks(seed, **changes):
    value = {
        "frontend": {"switch": seed["sn5600"].pk, "breakout": "2x400G", "ports_per_server": 2},
        "storage": {"mode": "fabric", "switch": seed["sn5600"].pk, "breakout": "2x400G", "nodes": 8,
                    "ports_per_node": 2, "ports_per_server": 2},
        "oob": {"ports": 48, "gbps": 1},
    }
    value.update(changes)
    return {key: item for key, item in value.items() if item is not None}


def create(client, project, data, capture):
    with capture(execute=True):
        return client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}), data, format="json")


@pytest.fixture
def generated(member_client, project, seed, django_capture_on_commit_callbacks):
    response = create(member_client, project, {"name": "Cluster", **inputs(seed), "networks": networks(seed)},
                      django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY, Job.objects.get(version=version).error
    return version


def test_generation_stores_every_network_with_its_rows_and_bom_section(generated):
    version = generated
    summary = version.summary
    assert set(summary["networks"]) == {"backend", "frontend", "storage", "oob"}
    devices = DeviceRecord.objects.filter(version=version)
    assert devices.filter(network="backend", role="server").count() == 32
    assert devices.filter(network="storage", role="storage").count() == 8
    links = LinkRecord.objects.filter(version=version)
    assert links.filter(network="frontend", tier=0).count() == 32 * 2
    assert links.filter(network="storage", tier=0).count() == 32 * 2 + 8 * 2
    # Every server, storage node and switch of the other networks: exactly one OOB link.
    oob_ends = list(links.filter(network="oob", tier=0).values_list("a_device_id", flat=True))
    managed = devices.exclude(network="oob").values_list("pk", flat=True)
    assert sorted(oob_ends) == sorted(managed)
    sections = set(BomLineRecord.objects.filter(version=version).values_list("network", flat=True))
    assert sections == {"backend", "frontend", "storage", "oob"}
    assert float(version.total_cost) == pytest.approx(summary["total_cost"])
    assert summary["total_cost"] == pytest.approx(sum(n["cost"]["total_cost"] for n in summary["networks"].values()))


def test_backend_endpoints_list_only_the_backend(member_client, generated):
    response = member_client.get(reverse("api-version-device-list", kwargs={"pk": generated.pk}),
                                 {"page_size": 1000})
    assert response.status_code == 200
    body = response.json()
    rows = body["results"] if isinstance(body, dict) else body
    assert {row["network"] for row in rows} == {"backend"}


def test_version_inputs_carry_the_networks(member_client, generated):
    response = member_client.get(reverse("api-version-detail", kwargs={"pk": generated.pk}))
    inputs_ = response.json()["inputs"]
    assert inputs_["networks"]["oob"] == {"ports": 48, "gbps": 1, "uplinks": 2, "pools": {}}


def _refused(client, project, seed, capture, field, **data):
    response = create(client, project, {"name": "Bad", **inputs(seed), **data}, capture)
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert not Design.objects.exists() and not DesignVersion.objects.exists() and not Job.objects.exists()
    return response.json()[field]


def test_frontend_on_a_server_without_frontend_ports_is_refused(member_client, project, seed,
                                                                  django_capture_on_commit_callbacks):
    seed["dgx_h100"].frontend_ports = 0
    seed["dgx_h100"].save()
    messages = _refused(member_client, project, seed, django_capture_on_commit_callbacks,
                        "networks.frontend.ports_per_server", networks=networks(seed, storage=None, oob=None))
    assert "no front-end ports" in " ".join(messages)


def test_storage_ports_per_server_without_a_storage_network_are_refused(member_client, project, seed,
                                                                         django_capture_on_commit_callbacks):
    _refused(member_client, project, seed, django_capture_on_commit_callbacks, "networks.storage.ports_per_server",
             networks=networks(seed, storage={"mode": "none", "ports_per_server": 2}))


def test_management_switch_with_fewer_ports_than_a_rack_needs_is_refused(member_client, project, seed,
                                                                          django_capture_on_commit_callbacks):
    messages = _refused(member_client, project, seed, django_capture_on_commit_callbacks, "networks.oob.ports",
                        networks=networks(seed, oob={"ports": 6, "gbps": 1}))
    assert "management ports" in " ".join(messages)


def test_overlapping_pools_between_networks_are_refused(member_client, project, seed,
                                                        django_capture_on_commit_callbacks):
    fe = {"switch": seed["sn5600"].pk, "breakout": "2x400G", "ports_per_server": 2, "pools": {"host": "10.0.0.0/14"}}
    messages = _refused(member_client, project, seed, django_capture_on_commit_callbacks,
                        "networks.frontend.pools.host", networks=networks(seed, frontend=fe))
    assert "10.0.0.0/12" in " ".join(messages)


def test_topology_api_draws_each_network_by_groups(member_client, generated):
    url = reverse("api-version-topology", kwargs={"pk": generated.pk})
    for network, groups in (("frontend", {"server", "leaf", "spine"}), ("storage", {"server", "storage", "leaf"}),
                            ("oob", {"server", "storage", "managed", "leaf", "spine"})):
        response = member_client.get(url, {"network": network})
        assert response.status_code == 200, response.content
        data = response.json()
        assert data["network"] == network
        ids = {node["data"]["id"].split(":")[-1] for node in data["elements"]["nodes"]}
        assert groups <= ids, ids
        assert sum(edge["data"]["count"] for edge in data["elements"]["edges"]) == LinkRecord.objects.filter(
            version=generated, network=network).count()
    oob = member_client.get(url, {"network": "oob"}).json()
    servers = next(n["data"] for n in oob["elements"]["nodes"] if n["data"]["id"].endswith(":server"))
    assert servers["count"] == 32
    assert member_client.get(url, {"network": "hall"}).status_code == 400


def test_links_api_lists_one_network_at_a_time(member_client, generated):
    url = reverse("api-version-link-list", kwargs={"pk": generated.pk})
    oob = member_client.get(url, {"network": "oob", "limit": 500}).json()
    assert oob["count"] == LinkRecord.objects.filter(version=generated, network="oob").count()
    assert {row["network"] for row in oob["results"]} == {"oob"}
    assert {row["medium_kind"] for row in oob["results"]} <= {"Cat6A", "SMF"}
    backend = member_client.get(url, {"limit": 5}).json()
    assert backend["count"] == LinkRecord.objects.filter(version=generated, network="backend").count()
    assert member_client.get(url, {"network": "x"}).status_code == 400


def test_design_page_shows_each_network_and_bom_sections(client_for_member, project, generated):
    page = client_for_member.get(reverse("designs:version-detail", kwargs={"project_pk": project.pk,
                                                                           "version_pk": generated.pk}))
    html = page.content.decode()
    assert page.status_code == 200
    for key in ("backend", "frontend", "storage", "oob", "cluster"):
        assert f'data-network="{key}"' in html
    for key in ("backend", "frontend", "storage", "oob"):
        assert f'data-network-subtotal="{key}"' in html
    assert "Whole cluster" in html and "Total cost, whole cluster" in html
    assert "48-port 1G management switch per rack, 2 uplinks" in html
    topology = client_for_member.get(reverse("designs:version-topology", kwargs={
        "project_pk": project.pk, "version_pk": generated.pk}))
    assert 'id="topology-network"' in topology.content.decode()


def test_design_form_puts_network_errors_on_their_fields(client_for_member, project, seed):
    url = reverse("designs:design-create", kwargs={"project_pk": project.pk})
    data = {"name": "Form", "server": seed["dgx_h100"].pk, "leaf_switch": seed["sn5600"].pk, "gpus": 256,
            "tiers": "auto", "currency": "USD", "networks_storage_ports_per_server": "2",
            "networks_oob_ports": "6", "networks_oob_gbps": "1"}
    response = client_for_member.post(url, data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "networks_storage_ports_per_server" in errors
    assert not Design.objects.exists()


def test_backend_topology_opens_a_server_to_its_backend_ports_only(generated):
    from apps.designs.api.topology import Topology

    server = DeviceRecord.objects.get(version=generated, network="backend", name="srv-0000")
    topology = Topology(generated, level="device")
    chain = topology.group_chain(f"dev:{server.pk}")
    data = topology.expand(f"dev:{server.pk}", expanded=chain[topology.base_index(chain):-1])
    ports = [n["data"]["label"] for n in data["elements"]["nodes"] if n["data"]["kind"] == "port"]
    assert sorted(ports) == [f"eth{i}" for i in range(8)]


def test_a_management_switch_is_refused_as_backend_leaf_and_as_front_end_leaf(member_client, project, seed,
                                                                              django_capture_on_commit_callbacks):
    sn2201 = SwitchModel.objects.get(sku="SN2201")
    messages = _refused(member_client, project, seed, django_capture_on_commit_callbacks, "leaf_switch",
                        leaf_switch=sn2201.pk, leaf_breakout="1x1G")
    assert "backend fabric" in " ".join(messages)
    messages = _refused(member_client, project, seed, django_capture_on_commit_callbacks, "networks.frontend.switch",
                        networks=networks(seed, frontend={"switch": sn2201.pk, "breakout": "1x1G",
                                                          "ports_per_server": 2}, storage=None, oob=None))
    assert "out-of-band management switch" in " ".join(messages)


def test_design_form_offers_only_fabric_switches_for_the_backend(client_for_member, project, seed):
    page = client_for_member.get(reverse("designs:design-create", kwargs={"project_pk": project.pk})).content.decode()
    backend = page.split('name="leaf_switch"', 1)[1].split("</select>", 1)[0]
    assert "SN2201" not in backend and "CE6866" not in backend and "SN5600" in backend
    frontend = page.split('name="networks_frontend_switch"', 1)[1].split("</select>", 1)[0]
    assert "CE6866" in frontend and "SN2201" not in frontend


def test_a_catalog_management_switch_runs_the_out_of_band_network(member_client, project, seed,
                                                                   django_capture_on_commit_callbacks):
    from apps.catalog.models import SwitchModel

    sn2201 = SwitchModel.objects.get(sku="SN2201")
    response = create(member_client, project, {"name": "OOB", **inputs(seed),
                                               "networks": networks(seed, oob={"switch": sn2201.pk})},
                      django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY, Job.objects.get(version=version).error
    # its 48 1G ports and the default 2 of its 4 uplinks, stored with the switch
    assert version.networks["oob"] == {"switch": sn2201.pk, "ports": 48, "gbps": 1, "uplinks": 2,
                                      "pools": {}}
    skus = set(BomLineRecord.objects.filter(version=version, network="oob").values_list("sku", flat=True))
    assert "SN2201" in skus


@pytest.mark.parametrize("oob, field, words", [
    ({"switch": "sn5600"}, "networks.oob.switch", "not a management switch"),
    ({"switch": "sn2201", "ports": 24}, "networks.oob.ports", "has 48 management ports"),
    ({"switch": "sn2201", "gbps": 10}, "networks.oob.gbps", "run at 1 Gb/s"),
    ({"switch": "sn2201", "uplinks": 6}, "networks.oob.uplinks", "at most 4"),
])
def test_a_management_switch_that_does_not_fit_is_refused_on_its_field(member_client, project, seed,
                                                                         django_capture_on_commit_callbacks,
                                                                         oob, field, words):
    from apps.catalog.models import SwitchModel

    pks = {"sn5600": seed["sn5600"].pk, "sn2201": SwitchModel.objects.get(sku="SN2201").pk}
    oob = {**oob, "switch": pks[oob["switch"]]}
    messages = _refused(member_client, project, seed, django_capture_on_commit_callbacks, field,
                        networks=networks(seed, oob=oob))
    assert words in " ".join(messages)


def test_the_design_form_offers_management_switches_only_and_says_why_in_chinese(client_for_member, project, seed):
    from django.utils import translation

    from apps.catalog.models import SwitchModel
    from apps.designs.forms import DesignCreateForm

    form = DesignCreateForm(project=project)
    offered = set(form.fields["networks_oob_switch"].queryset.values_list("switch_class", flat=True))
    assert offered == {"management"}
    url = reverse("designs:design-create", kwargs={"project_pk": project.pk})
    data = {"name": "Form", "server": seed["dgx_h100"].pk, "leaf_switch": seed["sn5600"].pk, "gpus": 256,
            "tiers": "auto", "currency": "USD", "networks_oob_switch": SwitchModel.objects.get(sku="SN2201").pk,
            "networks_oob_ports": "24"}
    with translation.override("zh-hans"):
        response = client_for_member.post(url, data, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "networks_oob_ports" in errors and "48" in " ".join(errors["networks_oob_ports"])
    assert "管理" in " ".join(errors["networks_oob_ports"])
    assert not Design.objects.exists()


def test_every_group_of_every_network_opens_into_its_devices_keeping_every_link(member_client, generated,
                                                                                 monkeypatch):
    from apps.designs.api.topology import networks as network_module

    url = reverse("api-version-topology", kwargs={"pk": generated.pk})
    for network in ("frontend", "storage", "oob"):
        first = member_client.get(url, {"network": network}).json()
        links = LinkRecord.objects.filter(version=generated, network=network)
        # The legend names the network's own groups, never the backend's rails.
        assert first["legend"]["rails"] == [] and first["legend"]["groups"]
        for node in first["elements"]["nodes"]:
            group = node["data"]["id"]
            assert node["data"]["expandable"]
            opened = member_client.get(url, {"network": network, "expanded": group}).json()
            assert opened["expanded"] == [group]
            ids = {n["data"]["id"] for n in opened["elements"]["nodes"]}
            assert group not in ids
            devices = [n["data"] for n in opened["elements"]["nodes"] if n["data"].get("group") == group]
            assert devices and len(devices) == node["data"]["count"] or node["data"]["id"].endswith(":managed")
            assert all(d["label"] for d in devices)
            assert sum(e["data"]["count"] for e in opened["elements"]["edges"]) == links.count()
            assert {e["data"]["source"] for e in opened["elements"]["edges"]} | {
                e["data"]["target"] for e in opened["elements"]["edges"]} <= ids
    # A group larger than a block opens into blocks, and a block into its devices.
    monkeypatch.setattr(network_module, "BLOCK", 8)
    blocks = member_client.get(url, {"network": "oob", "expanded": "net:oob:server"}).json()
    block_ids = [n["data"]["id"] for n in blocks["elements"]["nodes"] if n["data"]["kind"] == "netblock"]
    assert block_ids == [f"net:oob:server:b{b}" for b in range(4)]
    opened = member_client.get(url, {"network": "oob", "expanded": f"net:oob:server,{block_ids[1]}"}).json()
    inside = [n["data"] for n in opened["elements"]["nodes"] if n["data"].get("group") == block_ids[1]]
    assert len(inside) == 8 and all(d["kind"] == "netdev" for d in inside)
    assert sum(e["data"]["count"] for e in opened["elements"]["edges"]) == LinkRecord.objects.filter(
        version=generated, network="oob").count()
    assert member_client.get(url, {"network": "oob", "expanded": "net:oob:nothing"}).status_code == 400
