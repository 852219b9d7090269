"""The designs app: designs, immutable versions, generation jobs and the rows a version stores.

The core the capability apps build on (analysis, exports, reviews, and the ones to come), which
depend on it, never the reverse: designs imports none of them. Where they act, designs offers
hooks that they register with in their AppConfig.ready():
    generation.py  steps run while a version is generated (compute outside, save inside the
                   generation's transaction)
    panels.py      sections, badges and nav links of the design page
    sheets.py      sheets of a version's procurement workbook (with workbook.py, the streaming
                   .xlsx writer every sheet uses)
    signals.py     job_finished, once a job's finishing transaction commits
Below it: the engine (plain Python), catalog and projects. See README.md's layout section.
"""
