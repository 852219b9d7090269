"""RoceReview and TrafficAnalysis move from the designs app to this one, rows and tables untouched.

The tables were created by the designs app (its 0003 and 0004 migrations) and
keep their names (Meta.db_table): this migration only tells Django's state that the models now
belong to this app (designs 0007 removed them from its state), then moves their content types.
"""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

APP = "analysis"
MODELS = ('rocereview', 'trafficanalysis')


def _content_types_move(apps, schema_editor, *, source: str, target: str) -> None:
    """Keep the content types (and so permissions and admin log entries) of the moved models."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    types = ContentType.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        if not types.filter(app_label=target, model=model).exists():
            types.filter(app_label=source, model=model).update(app_label=target)


def content_types_forward(apps, schema_editor) -> None:
    _content_types_move(apps, schema_editor, source="designs", target=APP)


def content_types_backward(apps, schema_editor) -> None:
    _content_types_move(apps, schema_editor, source=APP, target="designs")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('designs', '0012_analysis_and_exports_leave_designs'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='RoceReview',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('settings', models.JSONField(default=dict, verbose_name='RoCE settings in force')),
                        ('findings', models.JSONField(default=list, verbose_name='checklist findings')),
                        ('headroom', models.JSONField(default=list, verbose_name='PFC headroom')),
                        ('context', models.JSONField(default=dict, verbose_name='fabric context')),
                        ('errors', models.PositiveIntegerField(default=0, verbose_name='errors')),
                        ('warnings', models.PositiveIntegerField(default=0, verbose_name='warnings')),
                        ('error', models.TextField(blank=True, verbose_name='why the review could not be made')),
                        ('seconds', models.FloatField(default=0.0, verbose_name='seconds')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('version', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='roce_review', to='designs.designversion')),
                    ],
                    options={
                        'db_table': 'designs_rocereview',
                        'verbose_name': 'RoCE review',
                        'verbose_name_plural': 'RoCE reviews',
                    },
                ),
                migrations.CreateModel(
                    name='TrafficAnalysis',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('generation', 'generation'), ('on-demand', 'on demand')], default='on-demand', max_length=16, verbose_name='source')),
                        ('status', models.CharField(choices=[('queued', 'queued'), ('running', 'running'), ('succeeded', 'succeeded'), ('failed', 'failed')], default='queued', max_length=12, verbose_name='status')),
                        ('pattern', models.CharField(choices=[('both', 'All-Reduce and All-to-All'), ('all-reduce', 'Ring All-Reduce'), ('all-to-all', 'All-to-All')], default='both', max_length=12, verbose_name='collective')),
                        ('max_flows', models.PositiveIntegerField(verbose_name='max flows')),
                        ('seed', models.BigIntegerField(default=0, verbose_name='seed')),
                        ('qps_per_connection', models.PositiveSmallIntegerField(default=1, verbose_name='queue pairs per connection')),
                        ('message_bytes', models.BigIntegerField(verbose_name='message bytes')),
                        ('switch_latency_ns', models.PositiveIntegerField(blank=True, null=True, verbose_name='switch port-to-port latency (ns)')),
                        ('nic_latency_ns', models.PositiveIntegerField(blank=True, null=True, verbose_name='NIC latency (ns)')),
                        ('report', models.JSONField(blank=True, default=dict, verbose_name='report')),
                        ('error', models.TextField(blank=True, verbose_name='error')),
                        ('seconds', models.FloatField(blank=True, null=True, verbose_name='seconds')),
                        ('celery_task_id', models.CharField(blank=True, max_length=64, verbose_name='Celery task id')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('version', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='traffic_analyses', to='designs.designversion')),
                    ],
                    options={
                        'db_table': 'designs_trafficanalysis',
                        'verbose_name': 'traffic analysis',
                        'verbose_name_plural': 'traffic analyses',
                        'ordering': ['-created_at', '-id'],
                        'indexes': [models.Index(fields=['version', 'status'], name='designs_traffic_version_status')],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward),
    ]
