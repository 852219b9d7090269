"""Load the seed catalog (apps/catalog/seed/*.yaml), upserting by SKU; safe to run again."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.catalog.services import SEED_DIR, CatalogImportError, catalog_seed_load, exchange_rates_seed_load


class Command(BaseCommand):
    help = "Load or refresh the hardware catalog from seed YAML files (upsert by SKU, all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--path", type=Path, default=SEED_DIR,
            help="A directory of switches/nics/servers/transceivers/cables/fibers.yaml, or one such file.",
        )

    def handle(self, *args, path: Path, **options):
        try:
            with transaction.atomic():  # items and rates together, or nothing
                result = catalog_seed_load(path=path)
                # The rates ship beside the item files; a single item file given on its own brings none.
                rates = exchange_rates_seed_load(path=path / "exchange_rates.yaml") \
                    if path.is_dir() and (path / "exchange_rates.yaml").exists() else 0
        except CatalogImportError as exc:
            for issue in exc.issues:
                self.stderr.write(str(issue))
            raise CommandError(f"{len(exc.issues)} problem(s) in the seed catalog; nothing was saved.") from None
        for kind in sorted(set(result.created) | set(result.updated) | set(result.unchanged)):
            self.stdout.write(
                f"{kind}: {result.created[kind]} created, {result.updated[kind]} updated, "
                f"{result.unchanged[kind]} unchanged"
            )
        self.stdout.write(f"exchange rates: {rates} added")
        self.stdout.write(self.style.SUCCESS(
            f"Seed catalog loaded: {sum(result.created.values())} created, {sum(result.updated.values())} updated."
        ))
