"""The analysis app: RoCE lossless settings and traffic analysis of a design version.

Depends on designs (and the engine), never the reverse: nothing in designs imports this app. It
acts through designs' hooks, registered in AnalysisConfig.ready():
    apps.designs.generation  computes the traffic analysis and RoCE review while a version is
                             generated, and saves them in the generation's transaction
    apps.designs.panels      the RoCE badge, nav link and sections and the Traffic section of the
                             design page
    apps.designs.sheets      the RoCE and Traffic sheets of the procurement workbook
The engine (apps.engine.roce, apps.engine.traffic) does the network work; this app stores its
results with the version, serves them (API, design-page panels, workbook sheets, a zip of
per-device configs) and lets a user change the RoCE settings through a new version. The `roce`
input itself belongs to the version (apps.designs.services.roce_input).

    models.py     RoceReview, TrafficAnalysis (one per version from generation, more on demand);
                  their tables keep the designs app's names (designs_rocereview, ...)
    review.py     the RoCE review of a plan as JSON rows (no database)
    services.py   the generation step, on-demand traffic runs, "change RoCE settings"
    selectors.py  stored results (or computed from the frozen spec for older versions), the Plan
    configs.py    the zip of per-device configs, streamed one file at a time
    text.py       translated checklist findings and traffic notes (by code and params)
    panels.py, sheets.py, tasks.py, views.py, forms.py, urls.py, api/
URLs and templates kept their names: pages at /designs/analysis/ (namespace "design-analysis"),
API under /api/versions/<pk>/roce/ and /traffic/, templates in templates/designs/analysis/.
"""
