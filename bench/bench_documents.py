"""Benchmark: the design document (PDF) of a 5,000-GPU and a 65,536-GPU design version.

    .venv/bin/python bench/bench_documents.py [--gpus N ...] [--language en|zh-hans] [--docx] [--reuse] [--json]
    .venv/bin/python bench/bench_documents.py --gpus 1000000 --switch DCS-7060X6-64PE --breakout 2x400G --planes 2 \
        --tiers auto [--networks all] [--keep DIR] [--profile DIR]

Runs against the PostgreSQL database in BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/fabricweb_bench; created and migrated when missing) and generates the
versions as bench_exports.py does (DGX H100 on the seed's 64x400G Tomahawk-4 class switch in 1x400G,
3 tiers), or with --reuse takes the last ready version of each size. Then each document is written by
a fresh process (`--render VERSION`), so its peak RSS is the document's, not the generation's:
apps.documents.document.version_document_pdf_write with the language active, as the export job does.

The design options are bench_exports.py's (--switch, --breakout, --planes, --tiers, --networks): the
1,000,000-GPU design is the line above. --profile writes a cProfile of each document's process.

Prints seconds, pages, file size and peak RSS per size; exits 1 unless the 5,000-GPU PDF takes under
20 s, the 65,536-GPU PDF under 60 s, every run peaks under 1 GB, and above 65,536 GPUs (issue 33) the
PDF takes under 120 s and peaks under 4 GB.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exports import _max_rss_mb, _setup, _version, design_arguments  # noqa: E402

LIMITS_S = {5_000: 20.0, 65_536: 60.0}
LARGE_LIMIT_S = 120.0  # above 65,536 GPUs (issue 33: the 1,000,000-GPU document under 2 minutes)
RSS_LIMIT_MB = 1024
LARGE_RSS_LIMIT_MB = 4096  # above 65,536 GPUs: a worker's memory (issue 33)


def render(version_id: int, language: str, out: Path, docx: bool) -> dict:
    """In this process: write the document of one version and report the time and memory it took."""
    from django.utils import translation

    from apps.designs.models import DesignVersion
    from apps.documents.document import version_document_docx_write, version_document_pdf_write

    version = DesignVersion.objects.get(pk=version_id)
    writer = version_document_docx_write if docx else version_document_pdf_write
    stages: list[tuple[float, str]] = []
    started = time.perf_counter()
    with translation.override(language):
        writer(version=version, path_or_stream=str(out),
               progress=lambda stage, percent: stages.append((round(time.perf_counter() - started, 2), stage)))
    seconds = time.perf_counter() - started
    pages = None
    if not docx:
        import pypdf

        pages = len(pypdf.PdfReader(str(out)).pages)
    return {"version": version_id, "gpus": version.gpus, "seconds": round(seconds, 2), "pages": pages,
            "mb": round(out.stat().st_size / 1e6, 2), "rss_mb": round(_max_rss_mb()), "stages": stages}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    design_arguments(parser, gpus_nargs="+")
    parser.add_argument("--language", default="en", choices=["en", "zh-hans"])
    parser.add_argument("--docx", action="store_true", help="the Word file instead of the PDF")
    parser.add_argument("--keep", metavar="DIR", help="keep the documents in DIR")
    parser.add_argument("--profile", metavar="DIR", help="write a cProfile of each document's process to DIR")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--render", type=int, metavar="VERSION", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-documents-") as scratch:
        _setup(os.path.join(scratch, "media"))
        if args.render:
            if args.profile:
                import cProfile

                profiler = cProfile.Profile()
                result = profiler.runcall(render, args.render, args.language, Path(args.out), args.docx)
                profiler.dump_stats(str(Path(args.profile) / f"document-{args.render}-{args.language}.prof"))
            else:
                result = render(args.render, args.language, Path(args.out), args.docx)
            print(json.dumps(result))
            return 0
        results = []
        for gpus in args.gpus:
            version, _user, generate_s = _version(gpus, args)
            folder = Path(args.keep) if args.keep else Path(scratch)
            folder.mkdir(parents=True, exist_ok=True)
            out = folder / f"bench-{gpus}-{args.language}.{'docx' if args.docx else 'pdf'}"
            child = subprocess.run(
                [sys.executable, __file__, "--render", str(version.pk), "--language", args.language,
                 "--out", str(out), *(["--docx"] if args.docx else []),
                 *(["--profile", str(Path(args.profile).resolve())] if args.profile else [])],
                capture_output=True, text=True, check=True, env={**os.environ},
            )
            result = json.loads(child.stdout.strip().splitlines()[-1])
            result["generate_s"] = round(generate_s, 2) if generate_s is not None else None
            result["limit_s"] = LIMITS_S.get(gpus, LARGE_LIMIT_S if gpus > 65_536 else None)
            result["rss_limit_mb"] = LARGE_RSS_LIMIT_MB if gpus > 65_536 else RSS_LIMIT_MB
            result["design"] = version.design.name
            result["links"] = version.summary.get("total_links")
            result["load"] = os.getloadavg()[0]
            results.append(result)
    ok = all((r["limit_s"] is None or r["seconds"] < r["limit_s"]) and r["rss_mb"] < r["rss_limit_mb"] for r in results)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        kind = "Word" if args.docx else "PDF"
        print(f"| design | links | {kind} s | limit s | pages | MB | peak RSS MB | load |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in results:
            print(f"| {r['design']} | {r['links'] or 0:,} | {r['seconds']} | {r['limit_s'] or '-'} | {r['pages'] or '-'} | "
                  f"{r['mb']} | {r['rss_mb']} | {r['load']:.1f} |")
        for r in results:
            print(f"{r['gpus']:,} GPUs stages: " + ", ".join(f"{stage} @ {at} s" for at, stage in r["stages"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
