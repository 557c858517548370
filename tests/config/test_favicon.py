"""Issue 21 bug 9: /favicon.ico, which browsers ask for on pages without an icon link
(the admin's), leads to the site's icon instead of a 404."""

from django.conf import settings
from django.contrib.staticfiles import finders


def _static_file(url: str) -> str | None:
    """The file a static URL serves, when it exists."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    assert url.startswith(prefix), url
    return finders.find(url.removeprefix(prefix))


def test_favicon_ico_leads_to_the_site_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code in (301, 302)
    assert response["Location"].endswith(".svg")
    assert _static_file(response["Location"]) is not None


def test_favicon_is_served_to_anonymous_visitors_without_a_session(client):
    # Asked by the browser on every page, signed in or not: never a login redirect.
    response = client.get("/favicon.ico")

    assert "login" not in response["Location"]


def test_admin_pages_link_the_site_icon(admin_client):
    response = admin_client.get("/admin/")

    assert response.status_code == 200
    assert b'rel="icon"' in response.content
    assert b"favicon.svg" in response.content
