"""Sections other apps add to the design page (one design version), without editing its templates.

The reviews app adds comments and approval, the analysis app its RoCE and traffic sections, the
exports app its exports; designs imports none of them. Register a panel from your app's
AppConfig.ready(), so it is there before any page is rendered:

    from django.utils.translation import gettext_lazy as _
    from apps.designs.panels import DesignPanel, design_panel_register

    def _comments_context(request, version):
        return {"comments": comment_list_for_version(version=version)}

    design_panel_register(DesignPanel(
        key="comments", title=_("Review"), template_name="reviews/_version_comments.html",
        slot="section", get_context=_comments_context, order=50,
    ))

Slots (where the panel appears on templates/designs/version_detail.html):
- "header":  beside the version title (a badge such as the approval state, a button);
- "nav":     in the version's navigation bar, next to "Overview" and "Topology and cabling"
             (a link to a page of your own, e.g. RoCE settings);
- "section": a full-width card after the alternatives, titled with ``title``.

Each template is rendered with ``version``, ``design``, ``project``, ``can_manage``, ``request``
and whatever get_context returns. Panels with ``ready_only=True`` (the default) are rendered only
for generated versions. The page itself is 404 for non-members, so panels need no access check.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from apps.projects.selectors import project_user_can_manage

from .models import DesignVersion

SLOTS = ("header", "nav", "section")


@dataclass(frozen=True)
class DesignPanel:
    key: str
    template_name: str
    title: Any = ""
    slot: str = "section"
    get_context: Callable[[HttpRequest, DesignVersion], dict[str, Any]] | None = None
    order: int = 100
    ready_only: bool = True

    def __post_init__(self) -> None:
        if self.slot not in SLOTS:
            raise ValueError(f"unknown design panel slot {self.slot!r}; one of {', '.join(SLOTS)}")


@dataclass(frozen=True)
class RenderedPanel:
    key: str
    title: str
    html: SafeString


_PANELS: dict[str, DesignPanel] = {}


def design_panel_register(panel: DesignPanel) -> None:
    """Add or replace (same key) a panel; registering twice is harmless."""
    _PANELS[panel.key] = panel


def design_panel_unregister(*, key: str) -> None:
    _PANELS.pop(key, None)


def design_panel_list(*, slot: str | None = None) -> list[DesignPanel]:
    panels = [panel for panel in _PANELS.values() if slot is None or panel.slot == slot]
    return sorted(panels, key=lambda panel: (panel.order, panel.key))


def design_panels_render(
    *, request: HttpRequest, version: DesignVersion, slots: tuple[str, ...] = SLOTS
) -> dict[str, list[RenderedPanel]]:
    """The registered panels of these slots rendered for this version, by slot (each list in order).

    Pages that show only some slots ask only for those (the topology page: header and nav), so
    section panels cost nothing there."""
    design = version.design
    base = {
        "version": version,
        "design": design,
        "project": design.project,
        "can_manage": project_user_can_manage(user=request.user, project=design.project),
    }
    rendered: dict[str, list[RenderedPanel]] = {slot: [] for slot in SLOTS}
    for panel in design_panel_list():
        if panel.slot not in slots or (panel.ready_only and not version.is_ready):
            continue
        context = dict(base)
        if panel.get_context is not None:
            context.update(panel.get_context(request, version))
        html = render_to_string(panel.template_name, context, request=request)
        rendered[panel.slot].append(RenderedPanel(key=panel.key, title=str(panel.title), html=html))
    return rendered


# Version labels on the project page -----------------------------------------------------------------
#
# The project page lists every version of every design; another app can put a short label beside each
# (the reviews app: the review state) without designs importing it. A provider takes the versions
# shown and answers {version id: {"text": ..., "css": ...}} in one query.

VersionLabelProvider = Callable[[list[DesignVersion]], dict[int, dict[str, str]]]
_version_label_providers: dict[str, VersionLabelProvider] = {}


def version_label_register(key: str, provider: VersionLabelProvider) -> None:
    """Register (or replace) the provider of one column of version labels on the project page."""
    _version_label_providers[key] = provider


def version_labels(versions: list[DesignVersion]) -> dict[str, dict[int, dict[str, str]]]:
    """Every registered column's labels for these versions: {column key: {version id: label}}."""
    return {key: provider(versions) for key, provider in _version_label_providers.items()}


# Links from a device in the topology inspector ----------------------------------------------------------
#
# The topology page's side panel lists, for a selected device, links another app offers (the racks app:
# "Its rack"). A link is a label and a function of the version giving a URL in which "__device__" stands
# for the device's name (the page puts the name in, URL-encoded); no query is made to build it.

@dataclass(frozen=True)
class DeviceLink:
    key: str
    label: Any
    url: Callable[[DesignVersion], str]


_device_links: dict[str, DeviceLink] = {}


def device_link_register(*, key: str, label: Any, url: Callable[[DesignVersion], str]) -> None:
    """Add or replace (same key) a link shown beside a device in the topology inspector."""
    _device_links[key] = DeviceLink(key=key, label=label, url=url)


def device_link_unregister(*, key: str) -> None:
    _device_links.pop(key, None)


def device_links(version: DesignVersion) -> list[dict[str, str]]:
    """[{"key", "label", "url"}] for the topology page's configuration, in registration order."""
    return [{"key": link.key, "label": str(link.label), "url": link.url(version)} for link in _device_links.values()]
