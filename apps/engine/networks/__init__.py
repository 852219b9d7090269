"""The cluster's other networks beside the backend fabric: front-end, storage and out-of-band management.

    spec.py      FrontendSpec, StorageSpec, OobSpec and their validation (pools never overlap)
    specio.py    the SPEC.json objects "frontend", "storage" ("frontend" = converged) and "oob"
    fabric.py    front-end and storage: a leaf-spine of their own over servers and storage nodes
    oob.py       one management switch per rack, aggregated; copper lengths; a subnet per rack
    cluster.py   plan_cluster(spec): the backend plan (unchanged) with Plan.networks filled
    report.py    the report's "networks" and "cluster" parts
    csvrows.py   the links CSV rows of the other networks

Nothing here changes the backend: its devices, links and addresses are the same with or without
the other networks. Device indexes continue after the backend's (engine.networks.model).
"""
