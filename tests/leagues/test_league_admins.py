"""A league's admins: members of their league from the start, they let in those who ask to
join (from the league page or the admin), and can change the invitation link."""

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import League, Membership, StandingsRecompute
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def erin(make_player, club):
    """Erin asked to join the Club and waits."""
    erin = make_player("erin", display_name="Erin")
    Membership.objects.create(league=club, user=erin)
    return erin


@pytest.fixture
def rivals(make_player):
    league = League.objects.create(name="Rivals", slug="rivals")
    zoe = make_player("zoe", display_name="Zoé", is_staff=True)
    league.admins.add(zoe)
    return league


def status(league, user):
    return Membership.objects.filter(league=league, user=user).values_list("status", flat=True)


# --- admins are members -----------------------------------------------------------------------


def test_whoever_is_made_an_admin_is_an_active_member(make_player):
    league = League.objects.create(name="New club", slug="new")
    founder = make_player("founder")
    league.admins.add(founder)
    assert list(status(league, founder)) == ["active"]


def test_an_admin_who_had_asked_to_join_is_let_in(club, erin):
    club.admins.add(erin)
    assert list(status(club, erin)) == ["active"]


def test_adding_a_league_to_someones_leagues_makes_them_a_member(make_player):
    league = League.objects.create(name="New club", slug="new")
    founder = make_player("founder")
    founder.administered_leagues.add(league)
    assert list(status(league, founder)) == ["active"]


def test_a_site_admin_names_any_player_the_admin_of_a_new_league(client, make_player):
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    founder = make_player("founder", display_name="Founder")
    form = {"name": "New club", "slug": "new", "description": "", "is_public": "on"}
    response = client.post(reverse("admin:leagues_league_add"), {**form, "admins": [founder.pk]})
    assert response.status_code == 302, response.content.decode()
    league = League.objects.get(slug="new")
    founder.refresh_from_db()
    assert founder.is_staff and list(status(league, founder)) == ["active"]


def test_an_admin_sees_no_ask_to_join_on_their_own_league(client, make_player):
    league = League.objects.create(name="New club", slug="new")
    founder = make_player("founder")
    league.admins.add(founder)
    client.force_login(founder)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Ask to join" not in page and "You are a member" in page


# --- requests to join on the league page ------------------------------------------------------


def test_the_league_page_shows_its_admins_who_waits(client, club, alice, erin):
    client.force_login(alice)
    page = client.get(club.get_absolute_url()).content.decode()
    assert "1 player asks to join" in page and "Erin" in page
    approve = reverse("league_membership_approve", args=[club.slug, erin.memberships.get().pk])
    assert f'action="{approve}"' in page


def test_members_and_visitors_see_no_request(client, club, bob, erin):
    assert "Erin" not in client.get(club.get_absolute_url()).content.decode()
    client.force_login(bob)
    assert "Erin" not in client.get(club.get_absolute_url()).content.decode()


def test_an_admin_lets_a_player_in_from_the_league_page(client, club, alice, erin):
    client.force_login(alice)
    url = reverse("league_membership_approve", args=[club.slug, erin.memberships.get().pk])
    response = client.post(url, follow=True)
    assert list(status(club, erin)) == ["active"]
    assert "Erin is a member of Club." in response.content.decode()
    assert "asks to join" not in response.content.decode()


def test_letting_in_takes_a_post(client, club, alice, erin):
    client.force_login(alice)
    url = reverse("league_membership_approve", args=[club.slug, erin.memberships.get().pk])
    assert client.get(url).status_code == 405
    assert list(status(club, erin)) == ["pending"]


def test_letting_in_needs_the_forms_csrf_token(club, alice, erin):
    client = Client(enforce_csrf_checks=True, headers={"accept-language": "en"})
    client.force_login(alice)
    url = reverse("league_membership_approve", args=[club.slug, erin.memberships.get().pk])
    assert client.post(url).status_code == 403
    assert list(status(club, erin)) == ["pending"]


def test_only_the_leagues_admins_let_players_in(client, club, bob, erin, rivals):
    url = reverse("league_membership_approve", args=[club.slug, erin.memberships.get().pk])
    client.force_login(bob)  # a member, not an admin
    assert client.post(url).status_code == 403
    client.force_login(rivals.admins.get())  # another league's admin
    assert client.post(url).status_code == 403
    # Nor through their own league's address.
    other = reverse("league_membership_approve", args=[rivals.slug, erin.memberships.get().pk])
    assert client.post(other).status_code == 404
    assert list(status(club, erin)) == ["pending"]


# --- requests to join in the admin ------------------------------------------------------------


@pytest.fixture
def club_admin(client, alice):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


def test_the_admin_index_counts_the_requests_to_join(club_admin, club, erin, rivals, make_player):
    Membership.objects.create(league=rivals, user=make_player("yann"))  # not Alice's league
    page = club_admin.get(reverse("admin:index")).content.decode()
    assert "1 player asks to join your leagues: let them in" in page
    link = reverse("admin:leagues_membership_changelist") + "?status__exact=pending"
    assert f'href="{link}"' in page
    waiting = club_admin.get(link).content.decode()
    assert "Erin" in waiting and "yann" not in waiting


def test_no_request_no_notice(club_admin, club):
    assert "asks to join" not in club_admin.get(reverse("admin:index")).content.decode()


def test_the_leagues_admin_page_counts_and_links_its_members(club_admin, club, erin):
    page = club_admin.get(reverse("admin:leagues_league_change", args=[club.pk])).content.decode()
    members = reverse("admin:leagues_membership_changelist") + f"?league__id__exact={club.pk}"
    assert f'href="{members}">4 members</a>' in page
    assert f'href="{members}&amp;status__exact=pending">1 waiting to join</a>' in page


# --- the invitation link ----------------------------------------------------------------------


def test_a_new_invitation_link_replaces_the_old_one(club_admin, club, make_player):
    old = club.get_invite_url()
    response = club_admin.post(
        reverse("admin:leagues_league_changelist"),
        {"action": "new_invite_link", "_selected_action": [club.pk]},
        follow=True,
    )
    club.refresh_from_db()
    new = club.get_invite_url()
    assert new != old and new in response.content.decode()
    guest = Client(headers={"accept-language": "en"})
    guest.force_login(make_player("guest"))
    assert guest.get(old).status_code == 404
    assert guest.post(old).status_code == 404
    assert guest.get(new).status_code == 200
    guest.post(new)
    assert club.memberships.filter(user__username="guest", status="active").exists()


# --- recompute ---------------------------------------------------------------------------------


def test_the_recompute_action_sends_a_large_season_to_the_background(
    club_admin, season, alice, bob, carol, settings
):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.SIXCLUB_RECOMPUTE_IN_REQUEST = 1
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    finished_game(season, [alice, bob, carol], [[7, 2, 9]])
    data = {"action": "recompute_standings", "_selected_action": [season.pk]}
    url = reverse("admin:leagues_season_changelist")
    response = club_admin.post(url, data, follow=True)
    assert "being recomputed in the background" in response.content.decode()
    assert DBTaskResult.objects.count() == 1
    job = StandingsRecompute.objects.get(season=season)
    assert job.games_total == 2 and job.finished_at is None
    season_page = reverse("admin:leagues_season_change", args=[season.pk])
    assert "Waiting to start (2 games)." in club_admin.get(season_page).content.decode()
    # A second click while it waits queues nothing more.
    response = club_admin.post(url, data, follow=True)
    assert "already under way" in response.content.decode()
    assert DBTaskResult.objects.count() == 1
    assert StandingsRecompute.objects.filter(season=season).count() == 1


def test_the_recompute_action_recomputes_a_small_season_at_once(club_admin, season, alice, bob):
    finished_game(season, [alice, bob], [[1, 5]])
    response = club_admin.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "recompute_standings", "_selected_action": [season.pk]},
        follow=True,
    )
    assert "standings recomputed from 1 game." in response.content.decode()
    assert not StandingsRecompute.objects.exists()
