"""Shared REST framework plumbing: one error shape for every bad input."""
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    """Answer Django validation errors (raised by services) as field-level HTTP 400s."""
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail = {field: [str(m) for e in errors for m in e.messages] for field, errors in exc.error_dict.items()}
        else:
            detail = {"non_field_errors": [str(m) for m in exc.messages]}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)


def validation_error(field: str, message: str) -> exceptions.ValidationError:
    return exceptions.ValidationError({field: [message]})
