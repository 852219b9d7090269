"""The layout keeps its architecture: apps in layers, and no import cycle between the project's modules.

- The import-linter contracts of pyproject.toml (the engine is plain Python; apps in layers:
  engine, catalog/projects/accounts, designs, analysis/exports, reviews) hold.
- No two modules of `apps` import each other, directly or around a circle, lazy imports inside
  functions included, except a service that enqueues its own thin task while the task calls that
  service back (`<app>.services[.x]` <-> `<app>.tasks`).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(m for m in graph.modules if ".migrations" not in m)
    edges = {m: sorted(i for i in graph.find_modules_directly_imported_by(m) if ".migrations" not in i)
             for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def _service_and_its_task(component: list[str]) -> bool:
    if len(component) != 2:
        return False
    tasks = [m for m in component if m.endswith(".tasks")]
    services = [m for m in component if ".services" in m and not m.endswith(".tasks")]
    if len(tasks) != 1 or len(services) != 1:
        return False
    app = tasks[0].removesuffix(".tasks")
    return services[0] == f"{app}.services" or services[0].startswith(f"{app}.services.")


def test_no_import_cycle_between_modules_but_a_service_and_its_own_task():
    graph = grimp.build_graph("apps", include_external_packages=False)
    cycles = [component for component in _cycles(graph) if not _service_and_its_task(component)]
    assert cycles == []


def test_the_cycle_finder_sees_a_circle_of_three():
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c", "p.d"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.c")
    graph.add_import(importer="p.c", imported="p.a")
    graph.add_import(importer="p.d", imported="p.a")
    assert _cycles(graph) == [["p.a", "p.b", "p.c"]]


def test_a_service_and_its_own_task_is_the_one_tolerated_pair():
    assert _service_and_its_task(["apps.designs.services.design", "apps.designs.tasks"])
    assert _service_and_its_task(["apps.exports.services", "apps.exports.tasks"])
    assert not _service_and_its_task(["apps.analysis.services", "apps.exports.tasks"])
    assert not _service_and_its_task(["apps.analysis.selectors", "apps.analysis.services"])


def test_import_contracts_are_kept():
    result = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
                             " sys.exit(lint_imports_command())", "--no-cache"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
    assert ", 0 broken." in result.stdout
