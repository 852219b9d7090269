from rest_framework import permissions


class IsStaffOrReadOnly(permissions.BasePermission):
    """Any signed-in user reads the catalog; only staff change it."""

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        return request.method in permissions.SAFE_METHODS or request.user.is_staff
