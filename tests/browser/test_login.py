import pytest

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_login_page_renders_and_rejects_wrong_password_in_place(page):
    UserFactory(username="ann")
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password]", "wrong")
    page.click("button[type=submit]")
    assert page.locator(".errors, .errorlist").first.is_visible()
    assert "/accounts/login/" in page.url
