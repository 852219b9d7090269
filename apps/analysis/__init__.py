"""RoCE lossless settings and traffic analysis of a design version, as users reach them.

The engine (apps.engine.roce, apps.engine.traffic) does the network work; this package stores
its results with the version, serves them (API, design-page panels, workbook sheets, a zip of
per-device configs) and lets a user change the RoCE settings through a new version.

    settings.py   the `roce` input: validation to "roce.<dotted>" field errors, stored minimal
    models.py     RoceReview, TrafficAnalysis (one per version from generation, more on demand)
    services.py   compute during generation, save in the generation's transaction, re-run traffic
    selectors.py  stored results (or computed from the frozen spec for older versions), the Plan
    configs.py    the zip of per-device configs, streamed one file at a time
    text.py       translated checklist findings and traffic notes (by code and params)
    panels.py, sheets.py, tasks.py, views.py, forms.py, urls.py, api/
"""
