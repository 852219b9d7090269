from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .services import profile_set_language


@login_required
@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    language = request.POST.get("language", "")
    try:
        profile_set_language(user=request.user, language=language)
    except ValidationError as exc:
        return HttpResponseBadRequest("; ".join(exc.message_dict["language"]))
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, samesite="Lax")
    return response
