import pytest

pytestmark = pytest.mark.django_db


def test_pages_forbid_inline_scripts_and_framing(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_no_page_carries_an_inline_script(alice_client):
    for path in ["/", "/tables/", "/players/alice/", "/accounts/profile/"]:
        html = alice_client.get(path).content.decode()
        for tag in html.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], (path, tag[:80])


def test_htmx_posts_carry_the_csrf_token(alice_client):
    html = alice_client.get("/tables/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_a_post_without_csrf_token_is_refused(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/tables/", {"seats_count": "3"}).status_code == 403


def test_sockets_may_connect_to_this_site_only(client):
    # 'self' covers ws: and wss: to the page's own host and port (CSP level 3); a bare
    # `ws:` or `wss:` source would let a page open sockets to any host.
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["connect-src"] == "'self'"
