"""fabricweb's network engine: spec -> topology -> cabling -> bom -> addressing -> roce -> traffic.

Plain Python (dataclasses and numpy), no Django. See spec.py for inputs and model.py for outputs.

Entry points (import them from their modules):
    apps.engine.plan        plan(spec, *, progress=None) -> Plan; size(spec) -> Sizing;
                            alternatives(spec) -> list[Alternative]
    apps.engine.networks.cluster  plan_cluster(spec) -> Plan with Plan.networks (front-end, storage,
                            out-of-band); size_cluster(spec) -> Sizing priced for the whole cluster
    apps.engine.specio      spec_from_dict(data) -> DesignSpec; spec_to_dict(spec) -> dict
    apps.engine.report      report(plan, *, alternatives=None) -> dict (reads model.Plan)
    apps.engine.names       port_name(device, port); port_name_table(plan); link_labels(plan, i)
    apps.engine.seedcatalog seed_catalog() / load(directory) -> SeedCatalog
    apps.engine.explore     explore(request) -> Exploration: every feasible fabric of a catalog, the frontier
    python -m apps.engine plan SPEC.json [--links FILE.csv] [--alternatives]
    python -m apps.engine explore EXPLORE.json

Modules and the rules they state: topology (sizing, spine counts, wiring), racks (placement and
run lengths), cabling (medium per cage group), bom (quantities, money, power), addressing
(/31s, loopbacks, ASNs), names (device and port names, labels).
"""
