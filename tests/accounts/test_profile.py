import pytest

pytestmark = pytest.mark.django_db


def test_a_player_page_shows_their_name(client, alice):
    response = client.get("/players/alice/")
    assert response.status_code == 200
    assert "Alice" in response.content.decode()


def test_an_unknown_player_is_404(client):
    assert client.get("/players/nobody/").status_code == 404


def test_a_player_edits_their_display_name_and_language(alice_client, alice):
    response = alice_client.post(
        "/accounts/profile/", {"display_name": "Alice L.", "preferred_language": "en"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice L."
    assert alice.preferred_language == "en"


def test_a_bad_language_is_refused_and_changes_nothing(alice_client, alice):
    response = alice_client.post(
        "/accounts/profile/", {"display_name": "Alice", "preferred_language": "klingon"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["preferred_language"]
    alice.refresh_from_db()
    assert alice.preferred_language == ""


def test_editing_needs_a_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def _paper_game(alice, bob, *, name, public, heads):
    """A finished game of Alice's and Bob's, entered from a paper sheet."""
    from games import services

    table = services.table_create(
        user=alice,
        kind="nimmt",
        seats_count=2,
        options={"end": "rounds", "rounds": 1},
        name=name,
        is_public=public,
    )
    services.table_paper(table_id=table.pk)
    services.paper_seats(table_id=table.pk, users=[alice, bob])
    services.paper_result(table_id=table.pk, lines=[heads])
    return table


def test_a_private_game_is_named_only_to_its_players(client, alice, bob, make_player):
    secret = _paper_game(alice, bob, name="Secret Tuesday", public=False, heads=[1, 9])
    public = _paper_game(alice, bob, name="Open Friday", public=True, heads=[5, 6])
    carol = make_player("carol")
    for viewer in (None, carol):
        if viewer is not None:
            client.force_login(viewer)
        page = client.get("/players/alice/")
        text = page.content.decode()
        assert "Open Friday" in text and f"/tables/{public.pk}/" in text
        assert "Secret Tuesday" not in text and f"/tables/{secret.pk}/" not in text
        figures = page.context["game_figures"][0]
        # Counted in her figures, never named: not among her best games either.
        assert figures["played"] == 2
        assert [line.table_id for line in figures["recent"]] == [public.pk]
        assert figures["best_games"] == [] and figures["worst_games"] == []
    for viewer in (alice, bob):
        client.force_login(viewer)
        page = client.get("/players/alice/")
        assert "Secret Tuesday" in page.content.decode()
        figures = page.context["game_figures"][0]
        assert [line.table_id for line in figures["best_games"]] == [secret.pk]
        assert [line.table_id for line in figures["worst_games"]] == [public.pk]
