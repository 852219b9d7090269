"""Traffic analyses store the queue pairs per connection their report used.

Analyses run with a design's generation stored the model's default (1) while the engine used the
design's own NCCL_IB_QPS_PER_CONNECTION (4 on RoCE); the report kept the value used. Copy it back.
"""
from django.db import migrations


def qps_from_reports(apps, schema_editor):
    TrafficAnalysis = apps.get_model("analysis", "TrafficAnalysis")
    rows = TrafficAnalysis.objects.using(schema_editor.connection.alias)
    changed = []
    for analysis in rows.exclude(report={}).only("pk", "qps_per_connection", "report").iterator():
        used = (analysis.report or {}).get("qps_per_connection")
        if isinstance(used, int) and 1 <= used <= 64 and used != analysis.qps_per_connection:
            analysis.qps_per_connection = used
            changed.append(analysis)
    rows.bulk_update(changed, ["qps_per_connection"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [("analysis", "0001_initial")]

    operations = [migrations.RunPython(qps_from_reports, migrations.RunPython.noop)]
