"""Neighbour dumps of a generated version, as the tools print them, with chosen faults."""
from __future__ import annotations

import io
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile

from apps.engine.asbuilt.samples import adjacency_by_device, lldpcli_json, sonic_lldp_table
from apps.handover.selectors import version_planned_fabric


def planned_pairs(version):
    f = version_planned_fabric(version=version)
    return f, [((f.a_device[i], f.a_port[i]), (f.b_device[i], f.b_port[i])) for i in range(len(f))]


def dump_files(pairs, *, servers: bool = False) -> list[tuple[str, str]]:
    by = adjacency_by_device(pairs)
    out = []
    for dev, rows in sorted(by.items()):
        if dev.startswith("srv"):
            if servers:
                out.append((f"{dev}.json", lldpcli_json(rows)))
        else:
            out.append((f"{dev}.txt", sonic_lldp_table(rows)))
    return out


def as_zip(files, name="dumps.zip") -> SimpleUploadedFile:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for fname, text in files:
            archive.writestr(f"lldp/{fname}", text)
    return SimpleUploadedFile(name, data.getvalue(), content_type="application/zip")


def as_uploads(files) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(name, text.encode(), content_type="text/plain") for name, text in files]


def swapped_and_missing(version):
    """The plan with links 0 and 1 crossed at the leaf end and link 2 unplugged."""
    f, pairs = planned_pairs(version)
    pairs[0], pairs[1] = (pairs[0][0], pairs[1][1]), (pairs[1][0], pairs[0][1])
    del pairs[2]
    return f, pairs
