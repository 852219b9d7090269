"""Catalog pages: browse every kind of item; staff export, import Excel and import NetBox YAML."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import selectors
from .excel import XLSX_CONTENT_TYPE, catalog_export_workbook, catalog_import_workbook
from .forms import KIND_TITLES, CatalogSearchForm, ExcelImportForm, NetboxImportForm
from .netbox import NetboxSource, netbox_device_type_yaml, netbox_device_types_import
from .services import CatalogImportError, ImportResult

LISTS = {
    "switches": selectors.switch_list, "nics": selectors.nic_list, "servers": selectors.server_list,
    "transceivers": selectors.transceiver_list, "cables": selectors.cable_list, "fibers": selectors.fiber_list,
    "patch_panels": selectors.patch_panel_list,
}


def _staff_only(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff can change the catalog."))


def _index(request: HttpRequest, **forms) -> HttpResponse:
    search = CatalogSearchForm(request.GET or None)
    q = kind = vendor = switch_class = fabric = ""
    if search.is_valid():
        q, kind = search.cleaned_data["q"].strip(), search.cleaned_data["kind"]
        vendor, switch_class = search.cleaned_data["vendor"], search.cleaned_data["switch_class"]
        fabric = search.cleaned_data["fabric"]
    if switch_class:  # a class is a switch's: the other kinds have none
        kind = "switches"
    sections = [
        {"key": key, "title": KIND_TITLES[key],
         "items": list(selectors.catalog_filter(LISTS[key](search=q), vendor=vendor, fabric=fabric,
                                                switch_class=switch_class))}
        for key in LISTS if not kind or key == kind
    ]
    context = {
        "search_form": search, "sections": sections, "q": q,
        "excel_form": forms.get("excel_form") or ExcelImportForm(),
        "netbox_form": forms.get("netbox_form") or NetboxImportForm(),
        "excel_issues": forms.get("excel_issues", []), "netbox_issues": forms.get("netbox_issues", []),
    }
    return render(request, "catalog/index.html", context)


@login_required
@require_GET
def catalog_index(request: HttpRequest) -> HttpResponse:
    return _index(request)


@login_required
@require_GET
def catalog_export(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(catalog_export_workbook(), content_type=XLSX_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="fabricweb-catalog-{timezone.now():%Y%m%d}.xlsx"'
    return response


def _report(request: HttpRequest, result: ImportResult, what: str) -> None:
    messages.success(request, _("%(what)s imported: %(created)s created, %(updated)s updated.") % {
        "what": what, "created": sum(result.created.values()), "updated": sum(result.updated.values()),
    })
    for warning in result.warnings:
        messages.warning(request, warning)


@login_required
@require_POST
def catalog_import_excel(request: HttpRequest) -> HttpResponse:
    _staff_only(request)
    form = ExcelImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _index(request, excel_form=form)
    try:
        result = catalog_import_workbook(data=form.cleaned_data["file"].read(), user=request.user)
    except CatalogImportError as exc:
        form.add_error(None, _("Nothing was imported: fix the problems below and import again."))
        return _index(request, excel_form=form, excel_issues=exc.issues)
    _report(request, result, _("Workbook"))
    return redirect("catalog:index")


@login_required
@require_POST
def catalog_import_netbox(request: HttpRequest) -> HttpResponse:
    _staff_only(request)
    form = NetboxImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _index(request, netbox_form=form)
    sources = [
        NetboxSource(upload.name, upload.read().decode("utf-8", errors="replace"))
        for upload in form.cleaned_data["files"]
    ]
    if form.cleaned_data["yaml"].strip():
        sources.append(NetboxSource(_("pasted YAML"), form.cleaned_data["yaml"]))
    try:
        result = netbox_device_types_import(sources=sources, user=request.user)
    except CatalogImportError as exc:
        form.add_error(None, _("Nothing was imported: fix the problems below and import again."))
        return _index(request, netbox_form=form, netbox_issues=exc.issues)
    _report(request, result, _("NetBox device types"))
    return redirect("catalog:index")


@login_required
@require_GET
def switch_netbox_yaml(request: HttpRequest, pk: int) -> HttpResponse:
    switch = get_object_or_404(selectors.switch_list(), pk=pk)
    response = HttpResponse(netbox_device_type_yaml(switch=switch), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{switch.sku}.yaml"'
    return response
