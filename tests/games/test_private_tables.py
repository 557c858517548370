"""Private tables (issue 31): the invite link makes the page live (its socket is let in
with the code, and only with it), and the bare URL gives the site's own page, status 404,
in the page's language, never Django's debug page."""

import pytest
from django.test import override_settings

from games import services
from tests.games import ws


@pytest.fixture
def private(alice):
    return services.table_create(user=alice, seats_count=3, options={}, is_public=False)


def get(client, url, language):
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


# --- the bare URL ----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_a_private_tables_bare_url_asks_for_the_link_in_english(client, bob, private, debug):
    client.force_login(bob)
    with override_settings(DEBUG=debug):
        response = get(client, f"/tables/{private.pk}/", "en")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="en">' in html
    assert "Ask the table&#x27;s creator for the link." in html or (
        "Ask the table's creator for the link." in html
    )
    assert 'href="/tables/"' in html
    assert "Page not found at" not in html  # Django's debug page


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_a_private_tables_bare_url_answers_in_french(client, bob, private, debug):
    # The French wording comes with the catalogue's merge: the page itself is checked here.
    client.force_login(bob)
    with override_settings(DEBUG=debug):
        response = get(client, f"/tables/{private.pk}/", "fr")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="fr">' in html
    assert 'id="not-shown"' in html
    assert 'href="/tables/"' in html
    assert "Page not found at" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_a_missing_table_and_a_wrong_code_get_the_same_page(client, bob, private, debug):
    client.force_login(bob)
    with override_settings(DEBUG=debug):
        shown = get(client, f"/tables/{private.pk}/", "en").content.decode()
        missing = get(client, f"/tables/{private.pk + 1000}/", "en")
        wrong = get(client, f"/tables/{private.pk}/?invite=not-the-code", "en")
    assert missing.status_code == wrong.status_code == 404
    # Nothing tells a missing table from a private one.
    assert main(missing.content.decode()) == main(wrong.content.decode()) == main(shown)


def main(html):
    """The page's own content (its head holds a CSRF token of each response)."""
    return html[html.index("<main") : html.index("</main>")]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_the_tables_other_pages_give_the_same_page(client, bob, private, debug):
    client.force_login(bob)
    with override_settings(DEBUG=debug):
        for page in ("log/", "replay/", "record.json"):
            response = get(client, f"/tables/{private.pk}/{page}", "en")
            assert response.status_code == 404
            assert 'id="not-shown"' in response.content.decode()


@pytest.mark.django_db
def test_the_invite_link_opens_the_page_with_a_live_socket(client, bob, private):
    client.force_login(bob)
    response = get(client, f"/tables/{private.pk}/?invite={private.invite_code}", "en")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'ws-connect="/ws/tables/{private.pk}/?invite={private.invite_code}"' in html
    # A public table's page (or one opened without a code) connects without one.
    public = services.table_create(user=bob, seats_count=2, options={})
    html = get(client, f"/tables/{public.pk}/", "en").content.decode()
    assert f'ws-connect="/ws/tables/{public.pk}/"' in html


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_any_other_missing_page_is_the_sites_own(client, bob):
    client.force_login(bob)
    for language in ("en", "fr"):
        response = get(client, "/no-such-page/", language)
        html = response.content.decode()
        assert response.status_code == 404
        assert f'<html lang="{language}">' in html
        assert 'id="not-found"' in html
    assert "Page not found" in get(client, "/no-such-page/", "en").content.decode()


# --- the socket --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_socket_lets_in_the_holder_of_the_invite_code_only(bob, private):
    path = f"/ws/tables/{private.pk}/"
    for query in ("", "?invite=", "?invite=not-the-code", f"?invite={private.invite_code}x"):
        refused = await ws.connect(path + query, bob)
        assert await refused.receive_output(timeout=3) == {
            "type": "websocket.close",
            "code": 4404,
        }
        await refused.disconnect()
    invited = await ws.connect(f"{path}?invite={private.invite_code}", bob)
    frame = await ws.receive(invited)
    assert 'id="live"' in frame and 'id="join"' in frame
    # Its "Take a seat" carries the code, as the page's own did.
    assert f'name="invite" value="{private.invite_code}"' in frame
    await invited.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_invited_players_page_shows_the_game_once_he_sits(alice, bob, private):
    from asgiref.sync import sync_to_async

    invited = await ws.connect(f"/ws/tables/{private.pk}/?invite={private.invite_code}", bob)
    await ws.receive(invited)
    join = sync_to_async(services.seat_join)
    await join(table_id=private.pk, user=bob, invite_code=private.invite_code)
    frames = await ws.drain(invited)
    assert frames and 'id="join"' not in frames[-1] and "Leave my seat" in frames[-1]
    await sync_to_async(services.table_start)(table_id=private.pk, user=alice)
    frames = await ws.drain(invited)
    # His hand, at once: the game's frame reached his page.
    assert frames and 'id="hand"' in frames[-1]
    await invited.disconnect()
