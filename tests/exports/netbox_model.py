"""NetBox's bulk import, as far as the handover zip meets it: the uniqueness rules of NetBox's models and
the all-or-nothing import of a file, in memory.

What it follows (netbox-community/netbox 4.x):
- A CSV or YAML import is one transaction: the first refused row refuses the whole file
  (netbox/views/generic/bulk_views.py BulkImportView: `with transaction.atomic()`, ValidationError aborts).
- Objects are found by name (CSVModelChoiceField with to_field_name="name"): no match or several matches
  refuse the row ("not a unique value").
- Uniqueness (the models' Meta constraints): Manufacturer, DeviceRole, Tenant, Site, RIR name and slug;
  Location (site, name) and (site, slug); Rack (location, name); DeviceType (manufacturer, model) and
  (manufacturer, slug); Device (name, site, tenant); Interface (device, name); an interface holds one
  cable; ASN asn; VRF rd (names are not unique); Prefix and IPAddress unique within a VRF whose
  enforce_unique is set (an IP address by its host address, whatever its mask).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import yaml


class Refused(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "exists": the object is there already; anything else is a real error


# Import files whose objects are unique by name alone, and the set that holds those names.
UNIQUE_BY_NAME = {"manufacturers": "manufacturers", "device_roles": "roles", "tenants": "tenants", "rirs": "rirs"}


def _exists(what: str) -> Refused:
    return Refused("exists", f"{what} already exists")


@dataclass
class NetBox:
    manufacturers: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)
    tenants: set[str] = field(default_factory=set)
    sites: set[str] = field(default_factory=set)
    locations: set[tuple[str, str]] = field(default_factory=set)
    racks: set[tuple[str, str]] = field(default_factory=set)
    device_types: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (manufacturer, model) -> ports
    devices: dict[tuple[str, str, str], str] = field(default_factory=dict)  # (name, site, tenant) -> device type
    interfaces: set[tuple[tuple, str]] = field(default_factory=set)
    cabled: set[tuple[tuple, str]] = field(default_factory=set)
    cables: int = 0
    rirs: set[str] = field(default_factory=set)
    asns: set[int] = field(default_factory=set)
    vrfs: list[dict] = field(default_factory=list)
    prefixes: set[tuple[int, str]] = field(default_factory=set)
    addresses: set[tuple[int, str]] = field(default_factory=set)

    # -- lookups by name ------------------------------------------------------------------------------------
    def _device(self, name: str) -> tuple:
        found = [key for key in self.devices if key[0] == name]
        if len(found) != 1:
            raise Refused("reference", f"device {name!r}: {'not found' if not found else 'not a unique value'}")
        return found[0]

    def _vrf(self, name: str) -> int:
        found = [i for i, vrf in enumerate(self.vrfs) if vrf["name"] == name]
        if len(found) != 1:
            raise Refused("reference", f"vrf {name!r}: {'not found' if not found else 'not a unique value'}")
        return found[0]

    def _need(self, present: bool, what: str) -> None:
        if not present:
            raise Refused("reference", f"{what} not found")

    # -- one row per object kind ------------------------------------------------------------------------------
    def _row(self, key: str, row: dict, state: NetBox) -> None:
        if key in UNIQUE_BY_NAME:
            names = getattr(state, UNIQUE_BY_NAME[key])
            if row["name"] in names:
                raise _exists(f"{key} {row['name']}")
            names.add(row["name"])
        elif key == "sites":
            if row["name"] in state.sites:
                raise _exists(f"site {row['name']}")
            self._need(not row.get("tenant") or row["tenant"] in state.tenants, "tenant")
            state.sites.add(row["name"])
        elif key == "locations":
            self._need(row["site"] in state.sites, "site")
            if (row["site"], row["name"]) in state.locations:
                raise _exists(f"location {row['name']}")
            state.locations.add((row["site"], row["name"]))
        elif key == "racks":
            self._need((row["site"], row["location"]) in state.locations, "location")
            if (row["location"], row["name"]) in state.racks:
                raise _exists(f"rack {row['name']}")
            state.racks.add((row["location"], row["name"]))
        elif key in ("devices", "devices_other_networks"):
            self._need(row["role"] in state.roles, f"role {row['role']}")
            self._need((row["manufacturer"], row["device_type"]) in state.device_types, f"type {row['device_type']}")
            self._need(not row.get("tenant") or row["tenant"] in state.tenants, "tenant")
            if row.get("rack"):
                self._need((row["location"], row["rack"]) in state.racks, f"rack {row['rack']}")
            device = (row["name"], row["site"], row.get("tenant", ""))
            if device in state.devices:
                raise _exists(f"device {row['name']}")
            state.devices[device] = row["device_type"]
            for port in state.device_types[(row["manufacturer"], row["device_type"])]:
                state.interfaces.add((device, port))
        elif key == "interfaces":
            device = state._device(row["device"])
            if (device, row["name"]) in state.interfaces:
                raise _exists(f"interface {row['device']} {row['name']}")
            state.interfaces.add((device, row["name"]))
        elif key == "cables":
            ends = []
            for side in ("a", "b"):
                device = state._device(row[f"side_{side}_device"])
                end = (device, row[f"side_{side}_name"])
                self._need(end in state.interfaces, f"interface {end[0][0]} {end[1]}")
                if end in state.cabled:
                    raise _exists(f"cable on {end[0][0]} {end[1]}")
                ends.append(end)
            state.cabled.update(ends)
            state.cables += 1
        elif key == "asns":
            self._need(row["rir"] in state.rirs, "RIR")
            if int(row["asn"]) in state.asns:
                raise _exists(f"ASN {row['asn']}")
            state.asns.add(int(row["asn"]))
        elif key == "vrfs":
            if row.get("rd") and any(vrf.get("rd") == row["rd"] for vrf in state.vrfs):
                raise _exists(f"VRF rd {row['rd']}")
            state.vrfs.append(dict(row))
        elif key == "prefixes":
            vrf = state._vrf(row["vrf"])
            if state.vrfs[vrf]["enforce_unique"] == "true" and (vrf, row["prefix"]) in state.prefixes:
                raise _exists(f"prefix {row['prefix']}")
            state.prefixes.add((vrf, row["prefix"]))
        elif key == "ip_addresses":
            vrf = state._vrf(row["vrf"])
            host = row["address"].split("/")[0]
            if state.vrfs[vrf]["enforce_unique"] == "true" and (vrf, host) in state.addresses:
                message = f"Duplicate IP address found in VRF {row['vrf']}: {row['address']}"
                # there before this file: imported already; added by this file: the design gives it twice
                raise Refused("exists" if (vrf, host) in self.addresses else "duplicate", message)
            device = state._device(row["device"])
            self._need((device, row["interface"]) in state.interfaces, f"interface {row['device']} {row['interface']}")
            state.addresses.add((vrf, host))
        else:
            raise AssertionError(f"no NetBox import page for {key}")

    def _copy(self) -> NetBox:
        return NetBox(**{name: (value.copy() if hasattr(value, "copy") else value)
                         for name, value in self.__dict__.items()})

    def import_file(self, key: str, text: str) -> Refused | None:
        """Import one file as NetBox does: all rows or none. Returns the refusal, if any."""
        state = self._copy()
        try:
            if key == "device_types":
                for document in yaml.safe_load_all(text):
                    type_key = (document["manufacturer"], document["model"])
                    self._need(document["manufacturer"] in state.manufacturers, "manufacturer")
                    if type_key in state.device_types:
                        raise _exists(f"device type {document['model']}")
                    state.device_types[type_key] = [i["name"] for i in document.get("interfaces") or []]
            else:
                for row in csv.DictReader(io.StringIO(text)):
                    self._row(key, row, state)
        except Refused as refused:
            return refused
        self.__dict__.update(state.__dict__)
        return None
