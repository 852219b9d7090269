"""The design tests' fixtures (seed catalog, a project with a member, clients), shared with this app's tests."""
import pytest

from tests.designs.conftest import (  # noqa: F401
    client_for_member,
    member,
    member_client,
    outsider_client,
    project,
    seed,
)


@pytest.fixture
def version(member_client, project, seed, django_capture_on_commit_callbacks):
    """A generated 512-GPU design (64 DGX H100, 16 leaves, 8 spines)."""
    from tests.analysis.test_analysis import generated

    return generated(member_client, project, seed, django_capture_on_commit_callbacks)
