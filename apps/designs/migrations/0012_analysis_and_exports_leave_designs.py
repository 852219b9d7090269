"""RoceReview, TrafficAnalysis and ExportFile leave the designs app's state; their tables stay.

The analysis and exports apps (their 0001_initial, which depend on this migration) take the models
over with the same tables (Meta.db_table), so no row moves and nothing is dropped.
"""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('designs', '0011_job_message_tracking'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name='RoceReview'),
                migrations.DeleteModel(name='TrafficAnalysis'),
                migrations.DeleteModel(name='ExportFile'),
            ],
        ),
    ]
