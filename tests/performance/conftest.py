"""The design tests' fixtures (seed catalog, a project with a member, clients), shared with this app's tests."""
from tests.designs.conftest import (  # noqa: F401
    client_for_member,
    member,
    member_client,
    outsider_client,
    project,
    seed,
)
