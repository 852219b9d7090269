"""The training-job performance model of a design version (apps.engine.simulation), as a page, an API,
a background job and a workbook sheet. Depends on designs; designs never imports it."""
