from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fabricweb.api import AsciiNumbersMixin, SlugRelatedField
from fabricweb.validators import validate_single_line_name

from ..models import Customer, Project, ProjectMembership
from ..selectors import customer_list_for_user, customer_user_can_manage, project_user_can_manage


class UserBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username"]
        read_only_fields = fields


class CustomerSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api-customer-detail")
    created_by = UserBriefSerializer(read_only=True)
    can_manage = serializers.SerializerMethodField()

    class Meta:
        model = Customer
        fields = ["id", "url", "name", "description", "country", "created_by", "can_manage", "created_at", "updated_at"]
        # Uniqueness (any letter case) is checked by the service, with one message for both paths.
        extra_kwargs = {"name": {"validators": []}}

    @extend_schema_field(serializers.BooleanField)
    def get_can_manage(self, customer: Customer) -> bool:
        return customer_user_can_manage(user=self.context["request"].user, customer=customer)


class ProjectSerializer(AsciiNumbersMixin, serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api-project-detail")
    customer = serializers.PrimaryKeyRelatedField(
        queryset=Customer.objects.none(),
        required=False,
        help_text=_("Id of a customer you can see. Or give new_customer_name instead."),
    )
    new_customer_name = serializers.CharField(
        write_only=True,
        required=False,
        max_length=200,
        validators=[validate_single_line_name],
        help_text=_("Customer by name: the existing one with this name, or a new customer."),
    )
    customer_name = serializers.CharField(source="customer.name", read_only=True)
    owner = SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.filter(is_active=True),
        required=False,
        help_text=_("Username of the owner. On update, ownership moves only to a current member."),
    )
    members_url = serializers.HyperlinkedIdentityField(
        view_name="api-project-member-list", lookup_url_kwarg="project_pk"
    )
    can_manage = serializers.SerializerMethodField()

    class Meta:
        model = Project
        fields = [
            "id",
            "url",
            "customer",
            "new_customer_name",
            "customer_name",
            "name",
            "description",
            "owner",
            "discount_pct",
            "currency",
            "review_two_people",
            "members_url",
            "can_manage",
            "created_at",
            "updated_at",
        ]
        # (customer, name) uniqueness is checked by the service and reported on "name".
        validators: list = []

    def get_fields(self):
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None:
            fields["customer"].queryset = customer_list_for_user(user=request.user)
        return fields

    @extend_schema_field(serializers.BooleanField)
    def get_can_manage(self, project: Project) -> bool:
        return project_user_can_manage(user=self.context["request"].user, project=project)

    def validate(self, attrs):
        has_customer = "customer" in attrs
        has_name = bool(attrs.get("new_customer_name"))
        if has_customer and has_name:
            raise serializers.ValidationError(
                {"new_customer_name": [_("Give either customer or new_customer_name, not both.")]}
            )
        if self.instance is None and not has_customer and not has_name:
            raise serializers.ValidationError({"customer": [_("Choose a customer or give new_customer_name.")]})
        if self.instance is not None and has_name:
            raise serializers.ValidationError(
                {"new_customer_name": [_("Only when creating a project; to move it, give customer.")]}
            )
        if self.instance is None and "owner" in attrs:
            raise serializers.ValidationError({"owner": [_("You own the projects you create.")]})
        return attrs


class ProjectMemberSerializer(serializers.ModelSerializer):
    user_id = serializers.IntegerField(source="user.id", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    is_owner = serializers.SerializerMethodField()
    added_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = ProjectMembership
        fields = ["user_id", "username", "is_owner", "added_by", "added_at"]
        read_only_fields = fields

    @extend_schema_field(serializers.BooleanField)
    def get_is_owner(self, membership: ProjectMembership) -> bool:
        return membership.user_id == membership.project.owner_id


class ProjectMemberAddSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text=_("Username of the user to add."))

    def validate_username(self, value: str):
        user = get_user_model().objects.filter(username=value, is_active=True).first()
        if user is None:
            raise serializers.ValidationError(_("No active user with this username."))
        return user
