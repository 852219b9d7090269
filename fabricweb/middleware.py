"""Project-wide middleware: the Content-Security-Policy header and the 503 page for an unreachable queue."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.response import TemplateResponse

from apps.designs.services.queue import QueueUnavailable


def _policy(directives: dict[str, list[str]]) -> str:
    return "; ".join(" ".join([name, *values]) for name, values in directives.items())


class ContentSecurityPolicyMiddleware:
    """Send settings.CONTENT_SECURITY_POLICY on every response that does not set its own."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = (
            "Content-Security-Policy-Report-Only" if settings.CONTENT_SECURITY_POLICY_REPORT_ONLY
            else "Content-Security-Policy"
        )
        self.value = _policy(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header not in response:
            response[self.header] = self.value
        return response


class QueueUnavailableMiddleware:
    """A page (or a non-DRF /api/ URL) that could not reach the job queue answers 503 with the reason.

    The service raised before writing anything (apps.designs.services.queue), so the user can simply
    try again. DRF views answer their own JSON 503 (fabricweb.api.exception_handler).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, QueueUnavailable):
            return None
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": str(exception)}, status=503)
        else:
            response = TemplateResponse(request, "503.html", {"message": str(exception)}, status=503)
            response.render()
        response["Retry-After"] = "60"
        return response
