from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .models import Profile


def profile_set_language(*, user: AbstractBaseUser, language: str) -> Profile:
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": [_("Unknown language %(code)s.") % {"code": language}]})
    profile, _created = Profile.objects.get_or_create(user=user)
    profile.language = language
    profile.save(update_fields=["language"])
    return profile


def user_language(*, user: AbstractBaseUser) -> str | None:
    profile = Profile.objects.filter(user=user).only("language").first()
    return profile.language if profile else None
