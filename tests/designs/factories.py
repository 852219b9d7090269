"""Designs, versions and jobs. Versions default to a small valid design on factory catalog parts.

For rows the engine would write, generate through the service (tests/designs/conftest.py
`generate`) rather than building records by hand.
"""
from __future__ import annotations

import factory

from apps.designs.models import Design, DesignVersion, Job
from tests.catalog.factories import NicModelFactory, ServerModelFactory, SwitchModelFactory
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory


class DesignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Design

    project = factory.SubFactory(ProjectFactory)
    name = factory.Sequence(lambda n: f"Fabric {n}")
    description = "Backend fabric"
    created_by = factory.LazyAttribute(lambda d: d.project.owner)


class DesignVersionFactory(factory.django.DjangoModelFactory):
    """A queued version of 64 GPUs on 64x800G switches in 2x400G (inputs only, no rows)."""

    class Meta:
        model = DesignVersion

    design = factory.SubFactory(DesignFactory)
    number = factory.Sequence(lambda n: n + 1)
    server = factory.SubFactory(ServerModelFactory)
    nic = factory.LazyAttribute(lambda v: v.server.default_nic or NicModelFactory())
    leaf_switch = factory.SubFactory(SwitchModelFactory)
    leaf_breakout = "2x400G"
    spine_switch = factory.LazyAttribute(lambda v: v.leaf_switch)
    spine_breakout = "2x400G"
    core_switch = factory.LazyAttribute(lambda v: v.leaf_switch)
    core_breakout = "2x400G"
    gpus = 64
    created_by = factory.LazyAttribute(lambda v: v.design.created_by)


class JobFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Job

    version = factory.SubFactory(DesignVersionFactory)
    project = factory.LazyAttribute(lambda j: j.version.design.project)
    kind = Job.Kind.GENERATE
    created_by = factory.SubFactory(UserFactory)
