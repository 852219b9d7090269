from django.conf import settings
from django.contrib.auth import get_user_model
from rest_framework import serializers


class MeSerializer(serializers.ModelSerializer):
    language = serializers.ChoiceField(choices=settings.LANGUAGES, required=False)

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "first_name", "last_name", "email", "is_staff", "language"]
        read_only_fields = ["id", "username", "is_staff"]
