"""Fixtures for design tests: the seed catalog, a project with a member, and generation helpers."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from apps.catalog.models import NicModel, ServerModel, SwitchModel
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

# Seed SKUs used by the worked examples.
DGX_H100 = "DGXH-G640F+P2EDI36"
HGX_B300 = "90SF02H1-M00030"
SN5600 = "920-9N42F-00RI-7C0"  # 64x800G, 1x800G / 2x400G / 4x200G
TH4_64X400 = "DCS-7060DX5-64S"  # 64x400G, 1x400G / 2x200G / 4x100G
CX7_OSFP = "MCX75310AAS-NEAT"


@pytest.fixture
def seed(db):
    """The shipped seed catalog, keyed by role for convenience."""
    call_command("load_seed_catalog", verbosity=0, stdout=io.StringIO())
    return {
        "dgx_h100": ServerModel.objects.get(sku=DGX_H100),
        "hgx_b300": ServerModel.objects.get(sku=HGX_B300),
        "sn5600": SwitchModel.objects.get(sku=SN5600),
        "th4": SwitchModel.objects.get(sku=TH4_64X400),
        "cx7": NicModel.objects.get(sku=CX7_OSFP),
    }


@pytest.fixture
def member(db):
    return UserFactory()


@pytest.fixture
def project(member):
    return ProjectFactory(members=[member])


@pytest.fixture
def member_client(member):
    client = APIClient()
    client.force_authenticate(member)
    return client


@pytest.fixture
def client_for_member(member) -> Client:
    """A browser session of the project member (HTML pages)."""
    client = Client()
    client.force_login(member)
    return client


@pytest.fixture
def outsider_client(db):
    client = APIClient()
    client.force_authenticate(UserFactory())
    return client


def inputs(seed, **changes):
    """API/service inputs for a design on seed parts: DGX H100 on SN5600 in 2x400G by default."""
    data = {"server": seed["dgx_h100"].pk, "leaf_switch": seed["sn5600"].pk, "leaf_breakout": "2x400G", "gpus": 256}
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}
