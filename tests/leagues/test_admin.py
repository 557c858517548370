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
        reverse(
            "admin:leagues_membership_change",
            args=[rivals.memberships.get(user__username="zoe").pk],
        ),
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


# --- issue 19: league admins' filters, co-admins, finished tables, season settings -----------


def test_a_league_admins_filters_show_none_of_another_leagues_names(club_admin, season, rivals):
    """Every changelist with a league or season filter, while the Rivals have games too."""
    from games.models import Game

    rivals_season = rivals.seasons.get()
    zoe = rivals.memberships.get(user__username="zoe").user
    finished_game(rivals_season, [zoe, "random"], [[1, 4]])
    Tournament.objects.create(season=rivals_season, name="Rivals cup", date=datetime.date.today())
    finished_game(season, [club_admin_user(season), "random"], [[2, 3]])
    Tournament.objects.create(season=season, name="Club cup", date=datetime.date.today())
    urls = [
        changelist(model)
        for model in (
            "league",
            "season",
            "membership",
            "evening",
            "tournament",
            "leaguegame",
            "standing",
        )
    ] + [reverse("admin:games_game_changelist"), reverse("admin:games_table_changelist")]
    for url in urls:
        page = club_admin.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        assert "Rivals" not in html, url
    assert Game.objects.filter(table__league_table__season=rivals_season).exists()


def club_admin_user(season):
    return season.league.admins.get()


def league_form(league, admins):
    return {
        "name": league.name,
        "slug": league.slug,
        "description": "",
        "is_public": "on",
        "admins": [user.pk for user in admins],
        "memberships-TOTAL_FORMS": str(league.memberships.count()),
        "memberships-INITIAL_FORMS": str(league.memberships.count()),
        **{
            key: value
            for index, membership in enumerate(league.memberships.order_by("pk"))
            for key, value in {
                f"memberships-{index}-id": membership.pk,
                f"memberships-{index}-league": league.pk,
                f"memberships-{index}-status": membership.status,
            }.items()
        },
    }


def test_a_league_admin_cannot_make_a_non_member_an_admin(club_admin, club, alice, rivals):
    zoe = rivals.memberships.get(user__username="zoe").user
    url = reverse("admin:leagues_league_change", args=[club.pk])
    response = club_admin.post(url, league_form(club, [alice, zoe]))
    assert response.status_code == 200
    assert "Only members of the league can be its admins. Not members: Zoé." in (
        response.content.decode()
    )
    zoe.refresh_from_db()
    assert not zoe.is_staff and not club.admins.filter(pk=zoe.pk).exists()


def test_making_a_member_an_admin_works_and_is_logged(club_admin, club, alice, bob, caplog):
    from django.contrib.admin.models import LogEntry

    url = reverse("admin:leagues_league_change", args=[club.pk])
    with caplog.at_level("INFO", logger="leagues.admin"):
        response = club_admin.post(url, league_form(club, [alice, bob]))
    assert response.status_code == 302, response.content
    bob.refresh_from_db()
    assert bob.is_staff and club.admins.filter(pk=bob.pk).exists()
    entry = LogEntry.objects.get(object_id=str(club.pk))
    assert entry.user == alice and "Added league admin “Bob”." in entry.get_change_message()
    assert "alice made Bob an admin" in caplog.text


def test_the_co_admin_autocomplete_lists_only_members(club_admin, club, rivals, make_player):
    make_player("stranger", display_name="Stranger")
    response = club_admin.get(
        reverse("admin:autocomplete"),
        {"app_label": "leagues", "model_name": "league", "field_name": "admins", "term": ""},
    )
    assert response.status_code == 200
    names = sorted(row["text"] for row in response.json()["results"])
    assert names == ["Alice", "Bob", "Carol", "Dave"]
    # The change page lists no player to choose from: the autocomplete does.
    page = club_admin.get(reverse("admin:leagues_league_change", args=[club.pk])).content
    assert b"Stranger" not in page and b"stranger" not in page


def test_a_league_admin_sees_no_player_list_otherwise(club_admin, club):
    assert club_admin.get(reverse("admin:accounts_user_changelist")).status_code == 403
    response = club_admin.get(
        reverse("admin:autocomplete"),
        {"app_label": "leagues", "model_name": "evening", "field_name": "players"},
    )
    assert response.status_code in (403, 404)


def test_a_league_admin_adds_no_member_by_hand(club_admin, club, alice, make_player):
    """Else any player of the site could be made a member, then an admin."""
    stranger = make_player("stranger", display_name="Stranger")
    form = league_form(club, [alice])
    row = club.memberships.count()
    form["memberships-TOTAL_FORMS"] = str(row + 1)
    form[f"memberships-{row}-league"] = club.pk
    form[f"memberships-{row}-user"] = stranger.pk
    form[f"memberships-{row}-status"] = "active"
    club_admin.post(reverse("admin:leagues_league_change", args=[club.pk]), form)
    assert not club.memberships.filter(user=stranger).exists()
    assert club_admin.get(reverse("admin:leagues_membership_add")).status_code == 403


def test_the_season_of_a_finished_table_is_read_only(root_client, club_admin, season, alice, bob):
    game = finished_game(season, [alice, bob], [[3, 8]])
    other = Season.objects.create(league=season.league, name="Other", starts_on=season.starts_on)
    url = reverse("admin:games_table_change", args=[game.table.pk])
    for client in (club_admin, root_client):
        page = client.get(url).content.decode()
        assert 'name="season"' not in page
        client.post(url, {"name": "Moved", "season": other.pk, "is_public": "on"})
        assert Table.objects.get(pk=game.table.pk).league_table.season == season
    assert Standing.objects.filter(season=season).count() == 2


def test_changing_placement_points_recomputes_the_standings_at_once(
    club_admin, season, alice, bob, carol
):
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    finished_game(season, [alice, bob, carol], [[7, 2, 9]])
    points = dict(Standing.objects.values_list("user__username", "points"))
    assert points == {"alice": 6 + 5, "bob": 5 + 6, "carol": 3 + 3}
    url = reverse("admin:leagues_season_change", args=[season.pk])
    form = {
        "league": season.league_id,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ranking": "placement",
        "placement_points": "10,4,1",
        "min_games": 1,
        "best_results": 10,
    }
    response = club_admin.post(url, form, follow=True)
    assert b"Standings recomputed from 2 games" in response.content
    points = dict(Standing.objects.values_list("user__username", "points"))
    assert points == {"alice": 10 + 4, "bob": 4 + 10, "carol": 1 + 1}


@pytest.mark.django_db(transaction=True)  # the worker runs outside a test transaction
def test_a_large_season_is_recomputed_in_the_background_with_progress(
    club_admin, season, alice, bob, carol, settings
):
    from django.core.management import call_command
    from django_tasks_db.models import DBTaskResult

    from leagues.models import StandingsRecompute

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.SIXCLUB_RECOMPUTE_IN_REQUEST = 1
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    finished_game(season, [alice, bob, carol], [[7, 2, 9]])
    url = reverse("admin:leagues_season_change", args=[season.pk])
    form = {
        "league": season.league_id,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ranking": "placement",
        "placement_points": "10,4,1",
        "min_games": 1,
        "best_results": 10,
    }
    response = club_admin.post(url, form, follow=True)
    assert b"being recomputed in the background" in response.content
    # Queued with the new points, in the same transaction: nothing has run yet.
    assert DBTaskResult.objects.get().task_path == "leagues.tasks.recompute_standings"
    job = StandingsRecompute.objects.get(season=season)
    assert job.games_total == 2 and job.started_at is None
    assert b"Waiting to start (2 games)" in club_admin.get(url).content
    # What the worker process runs, here in the test's process.
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)
    job.refresh_from_db()
    assert job.finished_at is not None and job.games_done == 2 and not job.error
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    assert b"from 2 games." in club_admin.get(url).content
    points = dict(Standing.objects.values_list("user__username", "points"))
    assert points == {"alice": 14, "bob": 14, "carol": 2}


@pytest.mark.django_db(transaction=True)
def test_the_background_recompute_runs_in_the_worker_process(
    season, alice, bob, carol, monkeypatch, settings
):
    """The real worker process, on PostgreSQL (CI): it reads the test database through
    DATABASE_URL."""
    import subprocess
    import sys

    from django.db import connection

    from leagues import tasks

    if connection.vendor != "postgresql":
        pytest.skip("another process cannot see this SQLite test database")
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    db = connection.settings_dict
    monkeypatch.setenv(
        "DATABASE_URL",
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    )
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings")
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    Season.objects.filter(pk=season.pk).update(placement_points="10,4,1")
    job = tasks.start_recompute(season, 1)
    worker = [sys.executable, "manage.py", "db_worker", "--batch", "--no-startup-delay"]
    assert subprocess.run(worker, cwd=settings.BASE_DIR, timeout=120).returncode == 0
    job.refresh_from_db()
    assert job.finished_at is not None and job.games_done == 1 and not job.error
    points = dict(Standing.objects.values_list("user__username", "points"))
    assert points == {"alice": 10, "bob": 4, "carol": 1}
