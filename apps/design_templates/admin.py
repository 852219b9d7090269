from django.contrib import admin

from .models import DesignTemplate


@admin.register(DesignTemplate)
class DesignTemplateAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "origin", "reference_title", "created_by", "created_at")
    list_filter = ("origin",)
    search_fields = ("name", "slug", "reference_title")
    readonly_fields = ("source_version", "created_by", "created_at", "updated_at")
