"""Copy the SONiC YANG models the configs tests check against into tests/engine/sonic_yang/.

    python scripts/sonic_yang.py /path/to/sonic-buildimage.git [COMMIT]

Takes the modules that model the tables fabricweb writes (TABLE_MODULES) from
src/sonic-yang-models/yang-models of sonic-buildimage, plus every module they import, found the
same way; the templated ones (yang-templates/*.yang.j2) are written as sonic-yang-models' own build
writes them for the Python tools (yang_model_type "py": the "cvl" branch of each if/else is dropped).
ietf-inet-types and ietf-yang-types are built into libyang. Writes LICENSE (Apache-2.0, SONiC's) and
SOURCE.txt (repository, commit, files).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "engine" / "sonic_yang"
BASE = "src/sonic-yang-models"
TABLE_MODULES = (
    "sonic-device_metadata", "sonic-port", "sonic-breakout_cfg", "sonic-dscp-tc-map", "sonic-dot1p-tc-map",
    "sonic-tc-queue-map", "sonic-tc-priority-group-map", "sonic-pfc-priority-queue-map",
    "sonic-pfc-priority-priority-group-map", "sonic-port-qos-map", "sonic-buffer-pool", "sonic-buffer-profile",
    "sonic-buffer-pg", "sonic-buffer-queue", "sonic-wred-profile", "sonic-scheduler", "sonic-queue", "sonic-pfcwd",
    "sonic-cable-length", "sonic-loopback-interface", "sonic-interface", "sonic-bgp-global", "sonic-bgp-neighbor",
    "sonic-route-common",
)
BUILT_IN = {"ietf-inet-types", "ietf-yang-types", "ietf-yang-metadata", "yang", "ietf-datastores",
            "ietf-yang-library"}
IMPORT = re.compile(r"^\s*(?:import|include)\s+([\w.-]+)", re.M)


def show(repo: str, commit: str, path: str) -> str | None:
    done = subprocess.run(["git", "--git-dir", repo, "show", f"{commit}:{path}"], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def render_py(template: str) -> str:
    """The template's text for yang_model_type "py": keep the else branch of `if yang_model_type == "cvl"`."""
    out, skipping = [], False
    for line in template.splitlines():
        tag = line.strip()
        if tag.startswith("{% if yang_model_type"):
            skipping = '== "cvl"' in tag
            continue
        if tag == "{% else %}":
            skipping = not skipping
            continue
        if tag == "{% endif %}":
            skipping = False
            continue
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


def module_text(repo: str, commit: str, name: str) -> tuple[str, str]:
    text = show(repo, commit, f"{BASE}/yang-models/{name}.yang")
    if text is not None:
        return text, f"{BASE}/yang-models/{name}.yang"
    template = show(repo, commit, f"{BASE}/yang-templates/{name}.yang.j2")
    if template is None:
        raise SystemExit(f"{name}: not in yang-models or yang-templates")
    return render_py(template), f"{BASE}/yang-templates/{name}.yang.j2 (rendered, yang_model_type py)"


def main(argv: list[str]) -> None:
    repo = argv[1]
    commit = subprocess.run(["git", "--git-dir", repo, "rev-parse", argv[2] if len(argv) > 2 else "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.yang"):
        old.unlink()
    todo, done, sources = list(TABLE_MODULES), set(), []
    while todo:
        name = todo.pop()
        if name in done or name in BUILT_IN:
            continue
        done.add(name)
        text, source = module_text(repo, commit, name)
        (OUT / f"{name}.yang").write_text(text, encoding="utf-8")
        sources.append(source)
        todo += IMPORT.findall(text)
    (OUT / "LICENSE").write_text(show(repo, commit, f"{BASE}/LICENSE"), encoding="utf-8")
    (OUT / "SOURCE.txt").write_text(
        "SONiC YANG models, copied unchanged (templates rendered for the Python tools) by scripts/sonic_yang.py from\n"
        f"https://github.com/sonic-net/sonic-buildimage at commit {commit}\n"
        "Licence: Apache-2.0 (LICENSE, from src/sonic-yang-models/LICENSE).\n\n" + "\n".join(sorted(sources)) + "\n",
        encoding="utf-8")
    print(len(sources), "modules")


if __name__ == "__main__":
    main(sys.argv)
