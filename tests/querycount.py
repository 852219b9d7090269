"""Query-count baselines, in the manner of NetBox's API and view tests: an N+1 shows at once.

Each endpoint or page has a recorded number of queries at two sizes of data ("small", "large").
A request that needs more queries than recorded fails with the queries it ran; one that needs
fewer passes and asks for the baseline to be lowered. An endpoint whose count grows with the
data (large > small) is an N+1 by definition unless its baseline says why.

    counts = QueryCounter(client)
    counts.get("api-version-device-list", url)          # measured after one warm-up request
    counts.check(BASELINES, size="small")               # one failure listing every regression

Set QUERYCOUNT_RECORD=1 to print the measured numbers as a BASELINES dict entry instead of failing.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection
from django.test.utils import CaptureQueriesContext

RECORD = os.environ.get("QUERYCOUNT_RECORD") == "1"


@dataclass
class Measured:
    count: int
    queries: list[str]


@dataclass
class QueryCounter:
    client: object
    measured: dict[str, Measured] = field(default_factory=dict)

    def measure(self, name: str, request: Callable[[], object], *, before: Callable[[], None] | None = None,
                status: int = 200) -> None:
        response = request()  # warm-up: per-process caches, lazily recorded audit events
        assert response.status_code == status, (name, response.status_code, getattr(response, "content", b"")[:500])
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as captured:
            response = request()
        assert response.status_code == status, (name, response.status_code)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        self.measured[name] = Measured(len(captured.captured_queries), [q["sql"] for q in captured.captured_queries])

    def get(self, name: str, url: str, **kwargs) -> None:
        self.measure(name, lambda: self.client.get(url), **kwargs)

    def check(self, baselines: dict[str, dict[str, int]], *, size: str) -> None:
        if RECORD:
            for name, measured in self.measured.items():
                print(f"QUERYCOUNT {size} {name!r}: {measured.count},")
            return
        problems = []
        for name, measured in self.measured.items():
            recorded = baselines.get(name, {}).get(size)
            if recorded is None:
                problems.append(f"{name}: no baseline for {size!r} (measured {measured.count})")
            elif measured.count > recorded:
                listing = "\n      ".join(sql[:300] for sql in measured.queries)
                problems.append(f"{name} ({size}): {measured.count} queries, baseline {recorded}:\n      {listing}")
        missing = sorted(set(baselines) - set(self.measured))
        problems += [f"{name}: has a baseline but was not measured" for name in missing]
        assert not problems, "Query counts grew:\n  " + "\n  ".join(problems)
