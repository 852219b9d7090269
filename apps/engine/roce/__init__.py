"""RoCE v2 lossless settings of a design: settings, PFC headroom, checklist and per-device configs.

    RoceSettings.from_dict(user_json) / .to_dict()          the settings (defaults + overrides)
    roce_checklist(plan, settings) -> list[Finding]         inconsistencies, with class and fix
    roce_configs(plan, settings) -> Iterator[(name, text)]  SONiC config_db files, NVUE / EOS, NIC scripts
    sonic_roles(plan, settings) -> list[SonicRole]          platform, HWSKU, breakout name, buffer arithmetic
    roce_headroom(plan, settings) -> list[PortHeadroom]     PFC headroom per switch class and link class
"""
from .checklist import RULES, SEVERITIES, Finding, present_classes, roce_checklist
from .configs import BufferPlan, SonicRole, roce_configs, sonic_roles
from .platform import sonic_platform
from .host import host_supported, nic_vendor
from .nos import nos_for_vendor
from .headroom import LinkClass, PortHeadroom, headroom_bytes, link_classes, port_headroom, tier_gbps
from .settings import (DEVICE_CLASSES, SWITCH_CLASSES, BufferSettings, ClassOverride, ClassSettings, Dcqcn,
                       EcnThresholds, PfcWatchdog, RoceSettings)


def config_formats(spec) -> dict:
    """What the configs zip holds for a spec: the second NOS per switch role, and whether servers get scripts."""
    nic = spec.nic_hw
    roles = ("leaf", "spine", "core")
    nos = {role: nos_for_vendor(spec.switch_hw(role).vendor) for role in roles}
    fabric = [spec.switch_hw(role) for role in roles]
    missing = sorted({hw.name or hw.sku for hw in fabric if sonic_platform(hw) is None})
    return {"second_nos": sorted({n.label for n in nos.values() if n is not None}), "sonic_missing": missing,
            "host_supported": host_supported(nic), "nic": nic.name or nic.sku, "nic_vendor": nic_vendor(nic)}


def roce_headroom(plan, settings: RoceSettings) -> list[PortHeadroom]:
    """Headroom rows for every switch class of the plan (leaf, spine, core) and link class it terminates."""
    classes = link_classes(plan)
    return [row for role in SWITCH_CLASSES if plan.switches.get(role, 0)
            for row in port_headroom(plan, settings, role, classes)]


__all__ = [
    "BufferPlan", "DEVICE_CLASSES", "RULES", "SonicRole", "sonic_platform", "sonic_roles", "config_formats",
    "host_supported", "nic_vendor", "nos_for_vendor", "SEVERITIES", "SWITCH_CLASSES", "BufferSettings",
    "ClassOverride", "ClassSettings", "Dcqcn", "EcnThresholds", "Finding", "LinkClass", "PfcWatchdog", "PortHeadroom",
    "RoceSettings", "headroom_bytes", "link_classes", "port_headroom", "present_classes", "roce_checklist",
    "roce_configs", "roce_headroom", "tier_gbps",
]
