from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics
from rest_framework.authtoken.views import ObtainAuthToken

from ..lockout import client_address, login_locked_message, login_locked_seconds

from ..services import profile_set_language, user_language
from .serializers import MeSerializer


class MeView(generics.RetrieveUpdateAPIView):
    """The signed-in user, with the UI language they chose."""

    serializer_class = MeSerializer

    def get_object(self):
        user = self.request.user
        user.language = user_language(user=user) or "en"
        return user

    def perform_update(self, serializer):
        language = serializer.validated_data.pop("language", None)
        user = serializer.save()
        if language:
            profile_set_language(user=user, language=language)
        user.language = user_language(user=user) or "en"


@extend_schema(tags=["auth"])
class TokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (header: `Authorization: Token <key>`).

    Failed attempts count towards the sign-in lock (apps.accounts.lockout): a locked name or
    address gets 429 with the wait, even with the right password.
    """

    def post(self, request, *args, **kwargs):
        username = request.data.get("username", "") if hasattr(request.data, "get") else ""
        seconds = login_locked_seconds(username=str(username or ""), address=client_address(request))
        if seconds:
            raise exceptions.Throttled(wait=seconds, detail=login_locked_message(seconds))
        return super().post(request, *args, **kwargs)
