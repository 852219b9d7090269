from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("language/", views.language_set, name="language-set"),
]
