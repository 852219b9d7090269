"""Admin: staff see every customer and project here (and only here)."""
from django.contrib import admin

from .models import Customer, Project, ProjectMembership
from .services import project_owner_membership_ensure


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ["name", "country", "created_by", "created_at", "updated_at"]
    search_fields = ["name", "country", "description"]
    list_filter = ["country"]
    raw_id_fields = ["created_by"]
    readonly_fields = ["created_at", "updated_at"]


class ProjectMembershipInline(admin.TabularInline):
    model = ProjectMembership
    fk_name = "project"
    extra = 1
    raw_id_fields = ["user", "added_by"]
    readonly_fields = ["added_at"]


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ["name", "customer", "owner", "currency", "discount_pct", "updated_at"]
    list_filter = ["currency"]
    search_fields = ["name", "customer__name", "owner__username"]
    list_select_related = ["customer", "owner"]
    raw_id_fields = ["customer", "owner"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [ProjectMembershipInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # The owner stays a member even if the inline removed them or the owner changed here.
        project_owner_membership_ensure(project=form.instance, added_by=request.user)
