import datetime

import pytest
from django.urls import reverse

from games.models import Table
from leagues.models import League, Membership, Season, Standing, Tournament
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rivals(bob, make_player):
    """Another league, run by Bob, whose members are strangers to Alice's club."""
    league = League.objects.create(name="Rivals", slug="rivals")
    league.admins.add(bob)
    zoe = make_player("zoe", display_name="Zoé")
    Membership.objects.create(league=league, user=zoe, status=Membership.Status.ACTIVE)
    Season.objects.create(league=league, name="Rivals 2026", starts_on=datetime.date(2026, 1, 1))
    return league


@pytest.fixture
def club_admin(client, alice, club):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


@pytest.fixture
def root_client(client, make_player):
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    return client


def changelist(model: str) -> str:
    return reverse(f"admin:leagues_{model}_changelist")


def act(client, model: str, action: str, *objects):
    return client.post(
        changelist(model),
        {"action": action, "_selected_action": [o.pk for o in objects]},
        follow=True,
    )


def test_a_league_admin_sees_only_their_leagues(club_admin, club, rivals, season):
    page = club_admin.get(changelist("league"))
    assert page.status_code == 200
    assert b"Club" in page.content and b"Rivals" not in page.content
    seasons = club_admin.get(changelist("season"))
    assert b"Rivals 2026" not in seasons.content and b"2026" in seasons.content
    members = club_admin.get(changelist("membership"))
    assert "Zoé" not in members.content.decode()


def test_a_league_admin_cannot_open_another_leagues_pages(club_admin, rivals):
    other_season = rivals.seasons.get()
    for url in (
        reverse("admin:leagues_league_change", args=[rivals.pk]),
        reverse("admin:leagues_season_change", args=[other_season.pk]),
        reverse("admin:leagues_membership_change", args=[rivals.memberships.get().pk]),
    ):
        response = club_admin.get(url)
        assert response.status_code in (302, 403, 404), url
        assert b"Rivals" not in response.content


def test_a_league_admin_picks_only_their_seasons_for_a_tournament(club_admin, season, rivals):
    page = club_admin.get(reverse("admin:leagues_tournament_add")).content.decode()
    assert str(season) in page and "Rivals 2026" not in page
    # Present players are chosen among the members of their leagues.
    assert "Carol" in page and "Zoé" not in page


def test_staff_who_run_no_league_see_no_league_admin(client, make_player, club):
    client.force_login(make_player("clerk", is_staff=True))
    assert client.get(changelist("league")).status_code == 403


def test_players_who_are_not_staff_are_sent_to_the_login(client, bob, club):
    club.admins.add(bob)
    client.force_login(bob)
    response = client.get(changelist("league"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_naming_league_admins_lets_them_into_the_admin(root_client, club, bob):
    url = reverse("admin:leagues_league_change", args=[club.pk])
    form = {
        "name": "Club",
        "slug": "club",
        "description": "",
        "is_public": "on",
        "admins": [bob.pk],
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }
    response = root_client.post(url, form)
    assert response.status_code == 302, response.content
    bob.refresh_from_db()
    assert bob.is_staff and club.admins.filter(pk=bob.pk).exists()


def test_closing_a_season_from_the_admin(club_admin, season):
    act(club_admin, "season", "close_seasons", season)
    season.refresh_from_db()
    assert season.closed and season.ends_on is not None


def test_recomputing_standings_from_the_admin(club_admin, season, alice, bob):
    finished_game(season, [alice, bob], [[3, 8], [2, 2]])
    fields = ("user_id", "games", "rounds", "heads", "wins", "points", "mu", "sigma", "trend")
    before = list(Standing.objects.order_by("user_id").values_list(*fields))
    Standing.objects.all().delete()
    response = act(club_admin, "season", "recompute_standings", season)
    assert b"1 game" in response.content
    assert list(Standing.objects.order_by("user_id").values_list(*fields)) == before


def test_generating_the_next_rounds_seating_from_the_admin(club_admin, season, club):
    event = Tournament.objects.create(
        season=season, name="Cup", date=datetime.date.today(), rounds=2
    )
    event.players.set([m.user for m in club.memberships.all()])
    act(club_admin, "tournament", "generate_seating", event)
    tables = Table.objects.filter(tournament_slot__tournament=event)
    assert tables.count() == 1 and tables.get().seats.count() == 4
    # The tables show in the tournament's page, read-only.
    page = club_admin.get(reverse("admin:leagues_tournament_change", args=[event.pk]))
    assert page.status_code == 200 and str(tables.get()) in page.content.decode()


def test_a_refused_seating_is_reported(club_admin, season, alice):
    event = Tournament.objects.create(season=season, name="Cup", date=datetime.date.today())
    event.players.set([alice])
    response = act(club_admin, "tournament", "generate_seating", event)
    assert b"At least two present players" in response.content
    assert not Table.objects.exists()


def test_approving_memberships_from_the_admin(club_admin, club, make_player):
    waiting = Membership.objects.create(league=club, user=make_player("erin"))
    act(club_admin, "membership", "approve", waiting)
    waiting.refresh_from_db()
    assert waiting.status == Membership.Status.ACTIVE


def test_a_league_game_shows_its_score_sheet_and_piles_read_only(
    club_admin, client, season, alice, bob, rivals
):
    game = finished_game(season, [alice, bob], [[3, 8]])
    page = club_admin.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    assert b"<form" in page.content and b'name="_save"' not in page.content
    client.force_login(bob)
    bob.is_staff = True
    bob.save()
    # Bob runs the Rivals, not this game's league.
    assert client.get(reverse("admin:games_game_change", args=[game.pk])).status_code != 200


def test_every_league_admin_page_opens_for_a_superuser(root_client, season, alice, bob):
    game = finished_game(season, [alice, bob, "random"], [[3, 8, 1]])
    event = Tournament.objects.create(season=season, name="Cup", date=datetime.date.today())
    for model in (
        "league",
        "season",
        "membership",
        "evening",
        "tournament",
        "leaguegame",
        "standing",
        "playerrating",
    ):
        assert root_client.get(changelist(model)).status_code == 200, model
    for url in (
        reverse("admin:leagues_evening_add"),
        reverse("admin:leagues_tournament_change", args=[event.pk]),
        reverse("admin:leagues_leaguegame_change", args=[game.league_entry.pk]),
        reverse("admin:leagues_season_change", args=[season.pk]),
        reverse("admin:leagues_league_change", args=[season.league_id]),
        reverse("admin:games_game_changelist"),
    ):
        assert root_client.get(url).status_code == 200, url
