from django.utils import translation

from .services import user_language


class UserLanguageMiddleware:
    """Activate the signed-in user's saved language (after LocaleMiddleware and auth)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = user_language(user=user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if user is not None and user.is_authenticated:
            response.headers.setdefault("Content-Language", translation.get_language())
        return response
