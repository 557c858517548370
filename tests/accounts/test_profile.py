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


def _private_and_public_tables(alice, bob):
    from games import services

    secret = services.table_create(
        user=alice, seats_count=3, options={}, is_public=False, name="Secret Tuesday"
    )
    services.seat_join(table_id=secret.pk, user=bob, invite_code=secret.invite_code)
    public = services.table_create(user=alice, seats_count=3, options={}, name="Open Friday")
    return secret, public


def test_a_private_table_is_listed_only_to_its_players(client, alice, bob, make_player):
    secret, public = _private_and_public_tables(alice, bob)
    carol = make_player("carol")
    for viewer in (None, carol):
        if viewer is not None:
            client.force_login(viewer)
        page = client.get("/players/alice/").content.decode()
        assert "Open Friday" in page and f"/tables/{public.pk}/" in page
        assert "Secret Tuesday" not in page and f"/tables/{secret.pk}/" not in page
    for viewer in (alice, bob):
        client.force_login(viewer)
        page = client.get("/players/alice/").content.decode()
        assert "Secret Tuesday" in page and f"/tables/{secret.pk}/" in page


def test_a_private_league_game_is_not_among_the_best_games_of_others(client, alice, bob):
    import datetime

    from django.utils import timezone

    from games.models import Table
    from leagues.models import League, Membership, Season
    from tests.leagues.conftest import finished_game

    league = League.objects.create(name="Club", slug="club")
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    season = Season.objects.create(
        league=league, name="2026", starts_on=timezone.localdate() - datetime.timedelta(days=3)
    )
    secret = finished_game(season, [alice, bob], [[1, 9]]).table
    Table.objects.filter(pk=secret.pk).update(is_public=False, name="Secret Tuesday")
    public = finished_game(season, [alice, bob], [[5, 6]]).table
    page = client.get("/players/alice/")
    assert [g["table_id"] for g in page.context["game_figures"][0]["best_games"]] == [public.pk]
    assert f"/tables/{secret.pk}/" not in page.content.decode()
    assert len(page.context["game_figures"][0]["per_round"]) == 2  # figures, without names or links
    client.force_login(bob)
    page = client.get("/players/alice/")
    best = page.context["game_figures"][0]["best_games"]
    assert [g["table_id"] for g in best] == [secret.pk, public.pk]
