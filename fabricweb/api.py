"""Shared REST framework plumbing: one error shape for every bad input."""
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, filters, pagination, parsers, serializers, status
from rest_framework.fields import ProhibitNullCharactersValidator
from rest_framework.response import Response


def exception_handler(exc, context):
    """Answer Django validation errors (raised by services) as field-level HTTP 400s, upload limits as 400s."""
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail = {field: [str(m) for e in errors for m in e.messages] for field, errors in exc.error_dict.items()}
        else:
            detail = {"non_field_errors": [str(m) for m in exc.messages]}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    # Django's upload limits (DATA_UPLOAD_MAX_*) would otherwise answer an HTML "Bad Request" page.
    if isinstance(exc, RequestDataTooBig):
        return Response({"detail": _("The request body is too large; upload large inputs as files.")},
                        status=status.HTTP_400_BAD_REQUEST)
    from apps.designs.services.queue import QueueUnavailable  # here: this module loads with DRF's settings

    if isinstance(exc, QueueUnavailable):
        # Raised before anything was written (apps.designs.services.queue): the client may retry as is.
        return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "60"})
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return Response({"detail": _("The request has too many fields.")}, status=status.HTTP_400_BAD_REQUEST)
    # Imported here: rest_framework.views reads DEFAULT_PARSER_CLASSES, which names this module's JSONParser,
    # so importing it at the top made "import fabricweb.api" circular (a celery worker failed to start).
    from rest_framework.views import exception_handler as drf_exception_handler

    return drf_exception_handler(exc, context)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with JSON nested past Python's stack a 400 like any other unparsable body."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("JSON parse error - %s") % _("nested too deeply")) from None


def page_not_found(request, exception, template_name="404.html"):
    """handler404: an /api/ URL no route matches answers JSON like the API's own 404s; pages stay HTML."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception, template_name)


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """DRF's default pagination with a largest page: a ?limit= past the database's range was a 500."""

    max_limit = 1000


class SearchFilter(filters.SearchFilter):
    """DRF's SearchFilter with its refusals (e.g. a NUL character) on the `search` field, not a bare list."""

    def get_search_terms(self, request):
        try:
            return super().get_search_terms(request)
        except exceptions.ValidationError as exc:
            raise exceptions.ValidationError({self.search_param: exc.detail}) from None


class SlugRelatedField(serializers.SlugRelatedField):
    """DRF's SlugRelatedField refusing NUL characters before the lookup (PostgreSQL cannot compare them)."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            ProhibitNullCharactersValidator()(data)
        return super().to_internal_value(data)


def validation_error(field: str, message: str) -> exceptions.ValidationError:
    return exceptions.ValidationError({field: [message]})


ERROR_SCHEMAS = {
    "ErrorDetail": {
        "type": "object",
        "description": "Not authenticated, not allowed, not found, a body that could not be parsed, or the "
                       "job queue unreachable (503).",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    },
    "FieldErrors": {
        "type": "object",
        "description": "Bad input, nothing changed: each field (dotted for nested inputs, `non_field_errors` "
                       "for the whole) with its messages; `detail` when the body could not be parsed.",
        "additionalProperties": {},
    },
}
_METHODS = ("get", "put", "patch", "post", "delete")


def _error(description: str, name: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}


def document_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: document the error answers every endpoint can give.

    400 where a body or query parameters are taken (field errors, or `detail` for an unparsable
    body) and on deletes (refusals), 401 and 403 where a login is needed, 404 where the path names an
    object. A 400 already documented with its own shape (imports: `errors` by sheet and row) also
    admits field errors.
    """
    result.setdefault("components", {}).setdefault("schemas", {}).update(ERROR_SCHEMAS)
    field_errors = {"$ref": "#/components/schemas/FieldErrors"}
    for path, item in result.get("paths", {}).items():
        for method in _METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            parameters = operation.get("parameters", [])
            # DELETE: refusals such as a catalog item in use or the project owner removed from members.
            takes_input = (method == "delete" or "requestBody" in operation
                           or any(p.get("in") == "query" for p in parameters))
            if takes_input:
                if "400" not in responses:
                    responses["400"] = _error("Bad input; nothing changed.", "FieldErrors")
                else:
                    for media in responses["400"].get("content", {}).values():
                        schema = media.get("schema")
                        if schema and schema != field_errors:
                            media["schema"] = {"anyOf": [schema, field_errors]}
            security = operation.get("security", [])
            if security and {} not in security:  # {} would mean "no login needed"
                responses.setdefault("401", _error("Not authenticated (header WWW-Authenticate: Token).", "ErrorDetail"))
                responses.setdefault("403", _error("Not allowed.", "ErrorDetail"))
            if any(p.get("in") == "path" for p in parameters):
                responses.setdefault("404", _error("No such object, or not visible to you.", "ErrorDetail"))
    return result


class AsciiNumbersMixin:
    """Number fields take ASCII digits only: DRF's int(), float() and Decimal() also read "١٢٣" and "１２３"."""

    NUMBER_FIELDS = (serializers.IntegerField, serializers.FloatField, serializers.DecimalField)

    def to_internal_value(self, data):
        if hasattr(data, "get"):
            errors = {
                name: [field.error_messages["invalid"]]
                for name, field in self.fields.items()
                if isinstance(field, self.NUMBER_FIELDS) and not field.read_only
                and isinstance(data.get(name), str) and not data.get(name).isascii()
            }
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
