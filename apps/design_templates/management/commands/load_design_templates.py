"""Load the built-in design templates (apps/design_templates/seed/templates.yaml), upserting by slug; safe to run again."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.design_templates.services import SEED_FILE, TemplateSeedError, design_templates_seed_load


class Command(BaseCommand):
    help = "Load or refresh the built-in design templates from their seed YAML (upsert by slug, all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("--path", type=Path, default=SEED_FILE, help="A templates YAML file.")

    def handle(self, *args, path: Path, **options):
        try:
            counts = design_templates_seed_load(path=path)
        except TemplateSeedError as exc:
            raise CommandError(f"{exc}; nothing was saved.") from None
        self.stdout.write(self.style.SUCCESS(
            f"Design templates: {counts['created']} created, {counts['updated']} updated, "
            f"{counts['unchanged']} unchanged."))
