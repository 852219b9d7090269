from django.db import migrations, models


class Migration(migrations.Migration):
    """The switch and NIC latencies a traffic analysis's latency term was computed with (empty: not given)."""

    dependencies = [
        ("designs", "0008_version_third_party_optics"),
    ]

    operations = [
        migrations.AddField(
            model_name="trafficanalysis",
            name="switch_latency_ns",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="switch port-to-port latency (ns)"),
        ),
        migrations.AddField(
            model_name="trafficanalysis",
            name="nic_latency_ns",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="NIC latency (ns)"),
        ),
    ]
