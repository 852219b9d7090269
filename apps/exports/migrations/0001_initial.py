"""ExportFile moves from the designs app to this one, rows and table untouched.

The tables were created by the designs app (its 0003 and 0004 migrations) and
keep their names (Meta.db_table): this migration only tells Django's state that the models now
belong to this app (designs 0007 removed them from its state), then moves their content types.
"""
import django.db.models.deletion
from django.db import migrations, models

APP = "exports"
MODELS = ('exportfile',)


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
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='ExportFile',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('xlsx', 'Excel workbook'), ('netbox', 'NetBox import (zip of CSV files)')], max_length=8, verbose_name='kind')),
                        ('language', models.CharField(blank=True, max_length=16, verbose_name='language')),
                        ('path', models.CharField(blank=True, help_text='Relative to MEDIA_ROOT.', max_length=500, verbose_name='path')),
                        ('size', models.PositiveBigIntegerField(blank=True, null=True, verbose_name='size (bytes)')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('job', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='export_file', to='designs.job')),
                        ('version', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='export_files', to='designs.designversion')),
                    ],
                    options={
                        'db_table': 'designs_exportfile',
                        'verbose_name': 'export file',
                        'verbose_name_plural': 'export files',
                        'ordering': ['-created', '-id'],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward),
    ]
