"""ECMP hashing as switch ASICs do it, vectorised over numpy arrays of flows.

A RoCE v2 flow's 5-tuple is (source IP, destination IP, UDP=17, source port, 4791). The
source port is the only field that varies between the queue pairs of one NIC pair; NICs
derive it from the QP number, so for ECMP it is effectively random in 49152-65535.
Every switch hashes the 5-tuple with CRC-32 (IEEE, the polynomial of zlib) and then
mixes it with its own seed (murmur3 finaliser) before taking the result modulo the number
of equal-cost next hops. Per-switch seeds are what keeps consecutive tiers from
"polarising" (picking correlated next hops); a bare CRC with a different initial value
is affine in the input and would correlate the tiers.
"""
from __future__ import annotations

import numpy as np

ROCE_UDP_PORT = 4791
UDP = 17
SPORT_MIN = 49152
SPORT_MAX = 65535


def _crc_table() -> np.ndarray:
    table = np.zeros(256, dtype=np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table[i] = c
    return table


CRC_TABLE = _crc_table()


def crc32_5tuple(src_ip: np.ndarray, dst_ip: np.ndarray, sport: np.ndarray, *, dport: int = ROCE_UDP_PORT,
                 proto: int = UDP) -> np.ndarray:
    """CRC-32 of the 13-byte 5-tuple (addresses and ports big-endian), equal to zlib.crc32 of it."""
    src_ip = np.asarray(src_ip, dtype=np.uint32)
    dst_ip = np.asarray(dst_ip, dtype=np.uint32)
    sport = np.asarray(sport, dtype=np.uint32)
    n = np.broadcast_shapes(src_ip.shape, dst_ip.shape, sport.shape)
    crc = np.full(n, 0xFFFFFFFF, dtype=np.uint32)
    mask = np.uint32(0xFF)

    def feed(crc: np.ndarray, byte) -> np.ndarray:
        return CRC_TABLE[(crc ^ byte) & mask] ^ (crc >> np.uint32(8))

    for value, nbytes in ((src_ip, 4), (dst_ip, 4), (np.uint32(proto), 1), (sport, 2), (np.uint32(dport), 2)):
        for k in range(nbytes - 1, -1, -1):
            crc = feed(crc, (value >> np.uint32(8 * k)) & mask)
    return crc ^ np.uint32(0xFFFFFFFF)


def fmix32(h: np.ndarray) -> np.ndarray:
    """murmur3 32-bit finaliser: a bijective, non-linear bit mixer."""
    h = np.asarray(h, dtype=np.uint32)
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def switch_seeds(n_devices: int, seed: int) -> np.ndarray:
    """One hash seed per device, derived from the device index and the analysis seed."""
    idx = np.arange(n_devices, dtype=np.uint32)
    return fmix32(idx * np.uint32(0x9E3779B9) + np.uint32(seed & 0xFFFFFFFF))


def ecmp_pick(flow_hash: np.ndarray, device_seed: np.ndarray, n_choices: np.ndarray) -> np.ndarray:
    """Next-hop index in [0, n_choices) a switch with `device_seed` picks for each flow."""
    h = fmix32(flow_hash ^ device_seed)
    return (h % np.maximum(n_choices, 1).astype(np.uint32)).astype(np.int64)


def random_source_ports(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(SPORT_MIN, SPORT_MAX + 1, size=n, dtype=np.uint32)
