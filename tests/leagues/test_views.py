import csv
import datetime
import io

import pytest
from django.urls import reverse

from games import services
from games.models import Table, TakenCard
from leagues.models import League, Membership, Season
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db


def standings_url(league, **query):
    url = reverse("league", args=[league.slug])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def test_the_standings_page_ranks_the_players(client, season, alice, bob, carol):
    finished_game(season, [alice, bob, carol], [[4, 9, 12]])
    page = client.get(standings_url(season.league))
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [(r.player, r.rank, r.heads) for r in rows] == [
        ("Alice", 1, 4),
        ("Bob", 2, 9),
        ("Carol", 3, 12),
    ]
    html = page.content.decode()
    assert html.index("Alice") < html.index("Bob") < html.index("Carol")
    assert 'class="spark"' not in html  # one game is not a trend yet
    finished_game(season, [alice, bob], [[1, 2]])
    assert 'class="spark"' in client.get(standings_url(season.league)).content.decode()


def test_the_season_selector_shows_another_season(client, season, alice, bob):
    old = Season.objects.create(
        league=season.league,
        name="2025",
        starts_on=datetime.date(2025, 1, 1),
        ends_on=datetime.date(2025, 12, 31),
        closed=True,
    )
    finished_game(old, [alice, bob], [[0, 5]])
    page = client.get(standings_url(season.league))
    assert page.context["season"] == season and page.context["rows"] == []
    page = client.get(standings_url(season.league, season=old.pk))
    assert page.context["season"] == old
    assert [r.player for r in page.context["rows"]] == ["Alice", "Bob"]
    assert f"?season={old.pk}" in page.content.decode()


def test_a_column_header_sorts_the_table(client, season, alice, bob, carol):
    finished_game(season, [alice, bob, carol], [[4, 9, 12]])
    page = client.get(standings_url(season.league, sort="heads", order="desc"))
    assert [r.player for r in page.context["rows"]] == ["Carol", "Bob", "Alice"]
    heads = next(c for c in page.context["columns"] if c["key"] == "heads")
    assert heads["current"] and "order=asc" in heads["href"]
    page = client.get(standings_url(season.league, sort="nonsense"))
    assert [r.player for r in page.context["rows"]] == ["Alice", "Bob", "Carol"]


def test_the_standings_download_as_csv(client, season, alice, bob):
    finished_game(season, [alice, bob], [[3, 3], [1, 5]])
    response = client.get(reverse("league_standings_csv", args=["club"]), {"season": season.pk})
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[1][:9] == ["1", "Alice", "alice", "1", "2", "4", "2.000", "1", "1.000"]
    assert lines[2][:9] == ["2", "Bob", "bob", "1", "2", "8", "4.000", "0", "0.000"]
    assert len(lines) == 3


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://x","y")', "@SUM(1)", "+1+1", "-2+3", "\tcmd", "\rcmd"]
)
def test_the_csv_writes_a_formula_like_name_as_text(client, season, alice, bob, name):
    # OWASP CSV injection: a spreadsheet runs a cell starting with = + - @ tab or CR.
    alice.display_name = name
    alice.save()
    bob.username = "@bob"
    bob.save()
    finished_game(season, [alice, bob], [[3, 3], [1, 5]])
    response = client.get(reverse("league_standings_csv", args=["club"]), {"season": season.pk})
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[1][1:3] == ["'" + name, "alice"]
    assert lines[2][1:3] == ["Bob", "'@bob"]


def test_the_csv_writes_our_negative_numbers_as_numbers(client, season, alice, bob):
    finished_game(season, [alice, bob], [[3, 3], [1, 5]])
    response = client.get(reverse("league_standings_csv", args=["club"]), {"season": season.pk})
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    ratings = [float(line[12]) for line in lines[1:]]  # a number, not a quoted text
    assert min(ratings) < 0  # a new player's conservative rating (mu - 3 sigma) is below 0


def test_a_members_only_league_hides_its_standings_from_others(client, season, alice, bob):
    League.objects.filter(pk=season.league_id).update(is_public=False)
    finished_game(season, [alice, bob], [[3, 8]])
    page = client.get(standings_url(season.league))
    assert page.status_code == 200 and page.context["rows"] == []
    assert b"for its members" in page.content
    csv_url = reverse("league_standings_csv", args=["club"])
    assert client.get(csv_url).status_code == 404
    client.force_login(bob)
    assert len(client.get(standings_url(season.league)).context["rows"]) == 2
    assert client.get(csv_url).status_code == 200


def test_the_league_list_shows_public_leagues_and_my_own(client, club, alice, make_player):
    League.objects.create(name="Secret", slug="secret", is_public=False)
    hidden = League.objects.create(name="Hidden", slug="hidden", is_public=False)
    Membership.objects.create(league=hidden, user=alice, status=Membership.Status.ACTIVE)
    names = lambda page: [league.name for league in page.context["leagues"]]  # noqa: E731
    assert names(client.get(reverse("league_list"))) == ["Club"]
    client.force_login(alice)
    assert names(client.get(reverse("league_list"))) == ["Club", "Hidden"]


def test_asking_to_join_waits_for_an_admin(client, club, make_player):
    erin = make_player("erin")
    client.force_login(erin)
    client.post(reverse("league_join", args=["club"]))
    assert Membership.objects.get(user=erin).status == Membership.Status.PENDING


def test_the_invitation_link_lets_a_player_in_at_once(client, club, make_player):
    erin = make_player("erin")
    client.force_login(erin)
    url = club.get_invite_url()
    assert b"Join the league" in client.get(url).content
    response = client.post(url)
    assert response.status_code == 302
    assert Membership.objects.get(user=erin).status == Membership.Status.ACTIVE
    assert client.get(reverse("league_invite", args=["wrong"])).status_code == 404


def test_leaving_a_league(client, club, bob):
    client.force_login(bob)
    client.post(reverse("league_leave", args=["club"]))
    assert not Membership.objects.filter(user=bob, league=club).exists()


def test_a_non_member_cannot_sit_at_a_league_table(season, alice, make_player):
    table = services.table_create(
        user=alice, seats_count=3, options={"end": "rounds", "rounds": 1}, season=season
    )
    with pytest.raises(services.ServiceError) as refused:
        services.seat_join(table_id=table.pk, user=make_player("eve"))
    assert refused.value.code == "not_member"
    assert table.seats.count() == 1


def test_a_closed_season_seats_nobody(season, alice, bob):
    table = services.table_create(
        user=alice, seats_count=3, options={"end": "rounds", "rounds": 1}, season=season
    )
    Season.objects.filter(pk=season.pk).update(closed=True)
    with pytest.raises(services.ServiceError) as refused:
        services.seat_join(table_id=table.pk, user=bob)
    assert refused.value.code == "season_closed"


def test_the_lobby_offers_the_open_seasons_of_my_leagues(alice_client, season, make_player):
    other = League.objects.create(name="Other", slug="other")
    foreign = Season.objects.create(league=other, name="Theirs", starts_on=season.starts_on)
    Season.objects.create(
        league=season.league, name="Done", starts_on=season.starts_on, closed=True
    )
    form = alice_client.get(reverse("lobby")).context["form"]
    assert list(form.fields["season"].queryset) == [season]
    data = {
        "name": "League night",
        "seats_count": 4,
        "end": "threshold",
        "threshold": 66,
        "rounds": 1,
        "deal": "random",
        "live_scores": "on",
        "time_limit": 0,
        "is_public": "on",
    }
    alice_client.post(reverse("lobby"), {**data, "season": season.pk})
    assert Table.objects.get(name="League night").league_table.season == season
    response = alice_client.post(reverse("lobby"), {**data, "season": foreign.pk})
    assert response.status_code == 400 and Table.objects.count() == 1


def test_the_lobby_has_no_season_choice_outside_leagues(client, make_player):
    client.force_login(make_player("erin"))
    assert "season" not in client.get(reverse("lobby")).context["form"].fields


def test_the_profile_shows_the_players_league_figures(client, season, alice, bob):
    games = [finished_game(season, [alice, bob], [[n, 10 - n], [2, 2]]) for n in range(5)]
    TakenCard.objects.bulk_create(
        TakenCard(game=game, round=1, turn=1, seat=0, card=55, heads=7) for game in games
    )
    TakenCard.objects.create(game=games[0], round=1, turn=2, seat=1, card=55, heads=7)
    TakenCard.objects.create(game=games[0], round=1, turn=2, seat=0, card=10, heads=3)
    page = client.get(reverse("profile", args=["alice"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Club" in html and "rank 1 of 2" in html
    (figures,) = page.context["game_figures"]
    assert (figures["played"], figures["wins"], figures["win_rate"]) == (5, 5, 100)
    assert figures["per_round"] == 2.0  # 20 heads in 10 rounds
    assert [g.score for g in figures["best_games"]] == [2, 3, 4]
    assert [g.score for g in figures["worst_games"]] == [6, 5]
    assert figures["cards_taken"] == [
        {"card": 55, "heads": 7, "times": 5},
        {"card": 10, "heads": 3, "times": 1},
    ]


def test_a_tournament_and_an_evening_have_their_pages(client, season, alice, bob):
    from leagues.models import Evening, Tournament

    game = finished_game(season, [alice, bob], [[3, 8]])
    cup = Tournament.objects.create(season=season, name="Cup", date=datetime.date.today())
    cup.seated_tables.create(round=1, number=1, table=game.table)
    evening = Evening.objects.create(season=season, date=datetime.date.today(), place="Café")
    evening.players.set([alice, bob])
    page = client.get(cup.get_absolute_url())
    assert page.status_code == 200 and [r.user for r in page.context["rows"]] == [alice, bob]
    assert b"Round 1" in page.content
    page = client.get(evening.get_absolute_url())
    assert page.status_code == 200 and b"Caf" in page.content
    other = League.objects.create(name="Other", slug="other")
    assert client.get(f"/leagues/{other.slug}/tournaments/{cup.pk}/").status_code == 404
    assert b"Cup" in client.get(standings_url(season.league)).content


def test_the_standings_page_speaks_french_by_default(season):
    from django.test import Client

    page = Client().get("/leagues/club/").content.decode()
    assert '<html lang="fr">' in page
    assert "classement : têtes par manche" in page
