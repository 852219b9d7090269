"""Racks and the data hall of a design version: rack elevations, power per rack, a floor plan.

The engine places every device in a rack of a hall (apps.engine.hall); this app stores the hall,
its racks and what each rack holds as rows per version (written in bulk with the version's other
rows, through designs' generation hook), and draws them: a floor plan coloured by power per rack
and rack elevations (apps.racks.svg), pages, an API, a workbook sheet.
"""
