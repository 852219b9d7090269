"""The exports app: a version's procurement workbook and NetBox import, written by export jobs.

Depends on designs, never the reverse: nothing in designs imports this app. It registers the
design page's "Exports" panel (apps.designs.panels) and its built-in workbook sheets with designs'
sheet registry (apps.designs.sheets) in ExportsConfig.ready(); it writes whatever sheets are
registered there, the analysis and reviews apps' included, with the streaming .xlsx writer
apps.designs.workbook.

    models.py     ExportFile (table designs_exportfile, kept from the designs app)
    services.py   ask for an export (synchronous for small versions, else queued), run the job
    tasks.py      the thin Celery task
    excel.py      the procurement workbook (Summary, BOM, Cabling, IP plan, Loopbacks, ASN plan)
    netbox.py     NetBox import CSVs as a zip
    selectors.py  rows streamed to both, download names
    views.py, panels.py, urls.py, api/ (serializers, views, urls)
URLs and templates kept their names: pages at /designs/exports/ (namespace "design-exports"), API
at /api/versions/<pk>/exports/ and /api/exports/<pk>/, templates in templates/designs/exports/.
"""
