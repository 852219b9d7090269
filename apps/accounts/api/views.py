from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.authtoken.views import ObtainAuthToken

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
    """Exchange a username and password for an API token (header: `Authorization: Token <key>`)."""
