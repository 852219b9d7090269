"""Neighbour dumps as the tools print them for a cabling (the plan's, or one with faults applied).

Used by the bench script and the tests, and to show a user what a dump should look like:
- sonic_lldp_table(): one switch's `show lldp table` (tabulate "simple" columns, as lldpshow prints);
- lldpcli_json(): one host's `lldpcli show neighbors -f json` (port id = MAC, descr = the switch port
  name as SONiC sets it, system name = the switch);
- ibnetdiscover(): one subnet's `ibnetdiscover` topology (switch and CA blocks, 1-based port numbers).
"""
from __future__ import annotations

import json
from collections import defaultdict
from typing import Iterable

End = tuple[str, str]


def adjacency_by_device(pairs: Iterable[tuple[End, End]]) -> dict[str, list[tuple[str, End]]]:
    """{device: [(local port, (remote device, remote port))]} from cabled pairs, both directions."""
    out: dict[str, list[tuple[str, End]]] = defaultdict(list)
    for near, far in pairs:
        out[near[0]].append((near[1], far))
        out[far[0]].append((far[1], near))
    return out


def sonic_lldp_table(rows: list[tuple[str, End]]) -> str:
    header = ("LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr")
    body = [(port, dev, rport, "BR" if not dev.startswith("srv") else "", rport) for port, (dev, rport) in rows]
    widths = [max([len(h)] + [len(r[k]) for r in body]) for k, h in enumerate(header)]
    lines = ["Capability codes: (R) Router, (B) Bridge, (O) Other",
             "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in body]
    lines += ["-" * 50, f"Total entries displayed:  {len(body)}"]
    return "\n".join(lines) + "\n"


def lldpcli_json(rows: list[tuple[str, End]]) -> str:
    def entry(index: int, dev: str, rport: str) -> dict:
        mac = f"b8:3f:d2:{(index >> 16) & 255:02x}:{(index >> 8) & 255:02x}:{index & 255:02x}"
        return {"via": "LLDP", "rid": str(index + 1), "age": "0 day, 00:10:00",
                "chassis": {dev: {"id": {"type": "mac", "value": mac}, "descr": "SONiC Software Version",
                                  "capability": [{"type": "Bridge", "enabled": True},
                                                 {"type": "Router", "enabled": True}]}},
                "port": {"id": {"type": "local", "value": f"etp{index + 1}"}, "descr": rport, "ttl": "120"}}

    items = [{port: entry(k, dev, rport)} for k, (port, (dev, rport)) in enumerate(rows)]
    interface: object = items[0] if len(items) == 1 else items
    return json.dumps({"lldp": {"interface": interface}} if items else {"lldp": {}}, indent=2) + "\n"


def ibnetdiscover(pairs: Iterable[tuple[tuple[str, int, bool], tuple[str, int, bool]]]) -> str:
    """pairs of ((device, port index, is switch), ...): switches by hostname, HCAs as "host mlx5_<i>"."""
    nodes: dict[str, dict] = {}

    def node(dev: str, index: int, switch: bool) -> tuple[str, int]:
        key = dev if switch else f"{dev} mlx5_{index}"
        if key not in nodes:
            guid = f"{0xb83fd20300000000 + len(nodes) + 1:016x}"
            nodes[key] = {"id": ("S-" if switch else "H-") + guid, "guid": guid, "switch": switch, "ports": []}
        return key, (index + 1 if switch else 1)

    for (ad, ai, asw), (bd, bi, bsw) in pairs:
        ka, pa = node(ad, ai, asw)
        kb, pb = node(bd, bi, bsw)
        nodes[ka]["ports"].append((pa, kb, pb))
        nodes[kb]["ports"].append((pb, ka, pa))
    out = ["#", "# Topology file: generated on Thu Dec  3 12:00:00 2026", "#",
           "# Initiated from node b83fd20300000001 port b83fd20300000001", ""]
    for switch_pass in (True, False):
        for key, n in nodes.items():
            if n["switch"] != switch_pass:
                continue
            out += ["vendid=0x2c9", "devid=0xd2f0" if n["switch"] else "devid=0x1021", f"sysimgguid=0x{n['guid']}"]
            if n["switch"]:
                out += [f"switchguid=0x{n['guid']}({n['guid']})",
                        f"Switch\t65 \"{n['id']}\"\t\t# \"MF0;{key}:MQM9700/U1\" enhanced port 0 lid 1 lmc 0"]
            else:
                out += [f"caguid=0x{n['guid']}", f"Ca\t1 \"{n['id']}\"\t\t# \"{key}\""]
            for port, rkey, rport in sorted(n["ports"]):
                r = nodes[rkey]
                rdesc = f"MF0;{rkey}:MQM9700/U1" if r["switch"] else rkey
                if n["switch"]:
                    guid = "" if r["switch"] else f"({r['guid']}) "
                    out.append(f"[{port}]\t\"{r['id']}\"[{rport}]{guid}\t\t# \"{rdesc}\" lid 7 4xNDR")
                else:
                    out.append(f"[{port}]({n['guid']}) \t\"{r['id']}\"[{rport}]\t\t# lid 9 lmc 0 \"{rdesc}\" lid 7 "
                               "4xNDR")
            out.append("")
    return "\n".join(out) + "\n"
