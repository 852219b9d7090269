"""Admin for designs, versions and jobs: a window on what generation wrote, never an editor.

Versions, jobs and their rows are written only by services (they are immutable once generated),
so these admins are read-only; a design's name and description may be corrected.
"""
from django.contrib import admin

from .models import BomLineRecord, Design, DesignVersion, Job


class ReadOnlyAdminMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class VersionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = DesignVersion
    fields = ("number", "status", "gpus", "tiers", "planes", "total_cost", "currency", "created_by", "created_at")
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False


@admin.register(Design)
class DesignAdmin(admin.ModelAdmin):
    list_display = ("name", "project", "created_by", "created_at")
    list_filter = ("project__customer",)
    search_fields = ("name", "project__name", "project__customer__name")
    readonly_fields = ("project", "created_by", "created_at")
    inlines = [VersionInline]

    def has_add_permission(self, request):
        return False


class BomLineInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = BomLineRecord
    fields = ("sku", "description", "category", "spare", "qty", "unit_price", "total", "power_typical_w", "scope",
              "in_server_typical_w", "rack_units")
    readonly_fields = fields
    extra = 0
    can_delete = False


class JobInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Job
    fields = ("kind", "status", "stage", "percent", "attempts", "error", "created_at", "finished_at")
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False


@admin.register(DesignVersion)
class DesignVersionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("design", "number", "status", "gpus", "tiers", "planes", "total_cost", "currency", "created_at")
    list_filter = ("status",)
    search_fields = ("design__name", "design__project__name")
    list_select_related = ("design",)
    inlines = [BomLineInline, JobInline]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]


@admin.register(Job)
class JobAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "kind", "status", "stage", "percent", "attempts", "project", "version", "created_at")
    list_filter = ("kind", "status")
    search_fields = ("id", "celery_task_id", "error")
    list_select_related = ("project", "version__design")

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]
