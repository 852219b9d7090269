"""Collective traffic patterns as NIC-to-NIC flows.

Assumptions (stated in every report):
- GPU i of a server uses backend NIC port i * ports // gpus (one NIC per GPU on 8-GPU,
  8-rail servers). Each NIC offers its line rate, shared equally by the flows it sources.
- Ring All-Reduce follows rings.py (shared with the performance model): ranks in the order of the
  job's servers, one rail-aligned ring per GPU position, NIC (order[i], rail) to NIC (order[i + 1],
  rail), each hop as NCCL's channels x `qps` queue pairs (NCCL_IB_QPS_PER_CONNECTION), coupled per
  ring channel. In plan order the servers of a scale unit are consecutive,
  so most ring neighbours share a leaf and the ring leaves a leaf only at scale-unit
  boundaries; a job scheduler places ranks on whatever servers are free, which
  `scheduler_order` models as the job's servers in a seeded random order (the same job
  size, every server once), so most ring steps cross spines and ECMP collisions show.
- All-to-All is every GPU to every other GPU. Traffic to a GPU on another rail first crosses
  NVLink to the local GPU on the destination's rail (PXN), so every network flow stays on
  one rail: the G GPUs of server s each have their own connection (of `qps` queue pairs)
  from NIC (s, rail q) to NIC (t, rail q) for every GPU of t on rail q. Traffic inside a server never touches the
  network.
- Scale-up domains (engine.scaleup): traffic between GPUs of one domain crosses NVLink, never the
  network. With rack-scale domains of k servers (compute trays), Ring All-Reduce is hierarchical:
  reduced inside each domain over NVLink, then one ring per (rail, tray position) over the domains
  (NIC of tray p of domain d sends to tray p of the next domain); All-to-All sends from every tray
  only to trays of other domains (steps (e, o): domain + e, tray position + o), and a scheduler
  hands out whole domains. With k = 1 (in-server domains) all of this is the per-server rule above.
- Above `max_flows`, All-to-All is sampled by pairwise-exchange steps: step e sends from
  every server s to server s + e; m of the S - 1 steps, evenly spaced from a random start
  (systematic sampling), are analysed, so near and far destinations keep their share and
  every NIC still sends and receives the same number of flows.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .fabric import Fabric
from .rings import CHANNELS_PER_NIC, ring_channel_flows, ring_hops


@dataclass(slots=True)
class FlowSet:
    pattern: str
    description: str
    src: np.ndarray  # NIC port index per flow
    dst: np.ndarray
    flows_total: int  # flows of the full collective
    flows_per_nic: int  # flows each sending NIC sources in the analysed set
    sampled: bool
    sample_method: str
    nic_bytes_per_message: float  # bytes a NIC sends per message byte of the collective
    flow_of: np.ndarray | None = None  # ring channel (coupled flow) of each queue-pair flow, rings.py
    share: np.ndarray | None = None  # share of its ring channel's rate a flow carries


def gpus_per_server(fabric: Fabric) -> int:
    return max(1, int(fabric.plan.spec.server.gpus))


def servers_per_domain(fabric: Fabric) -> int:
    """Servers sharing one scale-up domain (1 unless rack-scale), when the servers fill whole domains."""
    k = max(1, int(fabric.plan.spec.servers_per_domain))
    return k if fabric.servers % k == 0 else 1


def scheduler_order(servers: int, seed: int, per_domain: int = 1) -> np.ndarray:
    """The job's servers in the order a scheduler might hand them out: a permutation seeded by `seed`
    (of whole scale-up domains, their trays in order, when `per_domain` > 1)."""
    rng = np.random.default_rng([seed, 0x5C4ED])
    if per_domain > 1 and servers % per_domain == 0:
        domains = rng.permutation(servers // per_domain).astype(np.int64)
        return (domains[:, None] * per_domain + np.arange(per_domain, dtype=np.int64)[None, :]).ravel()
    return rng.permutation(servers).astype(np.int64)


def ring_all_reduce(fabric: Fabric, *, max_flows: int, rng: np.random.Generator, qps: int = 1,
                    order: np.ndarray | None = None, channels: int = CHANNELS_PER_NIC) -> FlowSet:
    """Ring All-Reduce over every GPU with the servers in `order` (plan order when None), ranks in that order:
    the rings, NCCL channels and queue pairs of rings.py, the model the performance model uses too."""
    servers, ports = fabric.servers, fabric.nic_ports
    gpus = gpus_per_server(fabric)
    k = servers_per_domain(fabric)
    domains = servers // k
    description = f"Ring All-Reduce within each of {ports} rails over {servers} servers"
    if k > 1:
        description = (f"Ring All-Reduce over {domains} scale-up domains of {k} servers (inside a domain over "
                       f"NVLink), one ring per rail and tray position")
    if domains < 2 or not ports:
        return FlowSet("all-reduce", description, np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 0, False, "",
                       0.0)
    s = np.arange(servers, dtype=np.int64) if order is None else np.asarray(order, dtype=np.int64)
    r = np.arange(servers * gpus, dtype=np.int64)
    server = s[r // gpus]
    rank_nic = server * ports + (r % gpus) * ports // gpus
    hops = ring_hops(r[None, :], server // k)
    # each of the g rings reduces 1/g of the buffer and a ring member sends 2 (D-1)/D of its share
    per_member = 2 * (domains - 1) / domains
    coupled = ring_channel_flows(hops, rank_nic, per_member, channels=channels, qps=qps)
    src, dst = coupled.src, coupled.dst
    total = len(src)
    flow_of, share = coupled.flow, coupled.share
    sampled, method = False, ""
    if total > max_flows:
        keep = np.sort(rng.choice(total, size=max_flows, replace=False))
        src, dst = src[keep], dst[keep]
        flow_of = share = None  # a sample of queue pairs no longer makes whole ring channels
        sampled = True
        method = f"{max_flows:,} of {total:,} ring queue-pair flows chosen uniformly at random"
    members_per_nic = max(1, gpus // max(ports, 1))
    per_message = per_member / hops.per_server * members_per_nic
    return FlowSet("all-reduce", description, src, dst, total, members_per_nic * max(1, channels) * max(1, qps),
                   sampled, method, per_message, flow_of, share)


def all_to_all(fabric: Fabric, *, max_flows: int, rng: np.random.Generator, qps: int = 1) -> FlowSet:
    servers, ports = fabric.servers, fabric.nic_ports
    gpus = gpus_per_server(fabric)
    n_gpus = servers * gpus
    k = servers_per_domain(fabric)
    domains = servers // k
    description = f"All-to-All across {n_gpus} GPUs ({servers} servers), PXN over the destination's rail"
    if k > 1:
        description += f"; inside each of the {domains} scale-up domains of {k * gpus} GPUs over NVLink"
    # local GPUs x remote GPUs on that rail x queue pairs per connection
    qps_per_nic_pair = gpus * max(1, gpus // max(ports, 1)) * qps
    if domains < 2 or not ports:
        return FlowSet("all-to-all", description, np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 0, False, "",
                       0.0)
    per_step = servers * ports * qps_per_nic_pair
    n_steps = servers - k  # (domain offset e in 1..D-1) x (tray offset o in 0..k-1)
    total = n_steps * per_step
    steps = np.arange(n_steps, dtype=np.int64)
    sampled, method = False, ""
    if total > max_flows:
        m = max(1, max_flows // per_step)
        # systematic sample: evenly spaced steps from a random start, so near and far
        # destinations keep their share (a plain random pick of few steps would not)
        steps = np.floor((rng.random() + np.arange(m)) * n_steps / m).astype(np.int64)
        sampled = True
        method = (f"{m} of {n_steps} pairwise-exchange steps (server s to s + e), evenly spaced from a random "
                  f"start: {m * per_step:,} of {total:,} flows; every NIC sends and receives the same number")
    s = np.arange(servers, dtype=np.int64)
    q = np.arange(ports, dtype=np.int64)
    src_srv = np.broadcast_to(s[None, :], (len(steps), servers))
    e, o = 1 + steps // k, steps % k
    dst_srv = ((src_srv // k + e[:, None]) % domains) * k + (src_srv % k + o[:, None]) % k
    src = (src_srv[:, :, None] * ports + q[None, None, :]).ravel()
    dst = (dst_srv[:, :, None] * ports + q[None, None, :]).ravel()
    src = np.repeat(src, qps_per_nic_pair)
    dst = np.repeat(dst, qps_per_nic_pair)
    # a GPU's buffer is split over all N GPUs; the remote share goes out through the NICs
    per_message = gpus * (n_gpus - k * gpus) / n_gpus / ports
    return FlowSet("all-to-all", description, src, dst, total, len(steps) * qps_per_nic_pair, sampled, method,
                   per_message)
