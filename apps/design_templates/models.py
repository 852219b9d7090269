"""Reference templates: the inputs of a design as a reference architecture (or a saved design) sets them.

`inputs` has the shape the design API and form take (apps.designs.services.inputs: server, nic,
leaf_switch, leaf_breakout, ..., gpus, planes, layout, pools, spares, networks), except that catalog
items are named by SKU, not by id: ids differ from one database to the next, SKUs do not. Starting
a design from a template turns the SKUs into the catalog's current ids (services.template_inputs).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from fabricweb.validators import DESCRIPTION_MAX_LENGTH

TRANSLATED_FIELDS = ("name", "description", "leaves_out")


class DesignTemplate(models.Model):
    class Origin(models.TextChoices):
        BUILTIN = "builtin", _("Built-in reference")
        SAVED = "saved", _("Saved by staff")

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True, max_length=DESCRIPTION_MAX_LENGTH)
    reference_title = models.CharField(_("reference"), max_length=300, blank=True)
    reference_url = models.URLField(_("reference URL"), max_length=500, blank=True)
    leaves_out = models.TextField(_("what it leaves out"), blank=True, max_length=4000)
    inputs = models.JSONField(_("inputs"), default=dict,
                              help_text=_("The design inputs it fills in, catalog items by SKU."))
    # Headline counts of the reference as published (servers, gpus, leaf, spine, core, links...).
    published_counts = models.JSONField(_("published counts"), default=dict, blank=True)
    # {"zh-hans": {"name": ..., "description": ..., "leaves_out": ...}} for built-in templates.
    translations = models.JSONField(default=dict, blank=True)
    origin = models.CharField(_("origin"), max_length=10, choices=Origin.choices, default=Origin.SAVED)
    source_version = models.ForeignKey("designs.DesignVersion", on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="+", verbose_name=_("saved from version"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["origin", "name"]
        verbose_name = _("design template")
        verbose_name_plural = _("design templates")

    def __str__(self) -> str:
        return self.name

    @property
    def is_builtin(self) -> bool:
        return self.origin == self.Origin.BUILTIN

    def text(self, field: str, language: str | None = None) -> str:
        """A text field in the user's language when the template carries it, else as stored."""
        language = (language or get_language() or "").lower()
        translated = (self.translations or {}).get(language) or {}
        return translated.get(field) or getattr(self, field)

    @property
    def display_name(self) -> str:
        return self.text("name")

    @property
    def display_description(self) -> str:
        return self.text("description")

    @property
    def display_leaves_out(self) -> str:
        return self.text("leaves_out")
