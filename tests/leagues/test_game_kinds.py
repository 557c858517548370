"""A season counts one game: 6 qui prend !, 6 qui surprend or Six (issues 22 and 23).

Six scores points, highest first (RULES §3.3); its score sheet keeps the cards left in each
hand, from which the league derives the points. Standings, ratings and profile figures are
kept per game.
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine, kinds, services
from games.models import Game, Table
from leagues import selectors
from leagues import services as league_services
from leagues.models import LeagueTable, Placing, PlayerRating, Season, Standing
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db


def a_season(club, kind: str, **fields) -> Season:
    return Season.objects.create(
        league=club,
        name=f"{kind} 2026",
        kind=kind,
        starts_on=timezone.localdate() - datetime.timedelta(days=30),
        min_games=1,
        **fields,
    )


def ranks(season):
    return [(row.player, row.rank) for row in selectors.season_standings(season=season)]


def test_six_hand_points_follow_the_cards_left():
    """RULES §3.3: the empty hand gains 5 plus every card left elsewhere; the others lose
    one point per card; a hand's points add up to 5."""
    points = kinds.get("six").league_totals([[0, 3, 2, 1], [4, 0, 1, 2]])
    assert points == (11 - 4, -3 + 12, -2 - 1, -1 - 2)
    assert sum(points) == 5 * 2


def test_existing_and_new_seasons_count_six_qui_prend_by_default(club):
    season = Season.objects.create(league=club, name="Old", starts_on=timezone.localdate())
    assert season.kind == "nimmt" and season.game.label == "6 qui prend !"


def test_a_six_season_ranks_the_most_points_first(club, alice, bob, carol):
    """RULES §3.3: ranking by points, highest first, for every ranking by score."""
    season = a_season(club, "six", ranking=Season.Ranking.TOTAL_HEADS)
    # Hand 1: Bob goes out (+5 + 4 + 1), Alice keeps 4, Carol 1.
    finished_game(season, [alice, bob, carol], [[4, 0, 1]])
    assert {s.user.username: s.heads for s in Standing.objects.filter(season=season)} == {
        "alice": -4,
        "bob": 10,
        "carol": -1,
    }
    assert ranks(season) == [("Bob", 1), ("Carol", 2), ("Alice", 3)]
    places = dict(Placing.objects.values_list("user__username", "place"))
    assert places == {"bob": 1, "carol": 2, "alice": 3}
    assert Standing.objects.get(season=season, user=bob).wins == 1
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.MEAN_HEADS)
    assert ranks(Season.objects.get(pk=season.pk))[0] == ("Bob", 1)
    # The rating agrees: the most points is the best result.
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.RATING)
    assert ranks(Season.objects.get(pk=season.pk)) == [("Bob", 1), ("Carol", 2), ("Alice", 3)]


def test_ratings_are_kept_per_game(club, alice, bob):
    nimmt = a_season(club, "nimmt")
    six = a_season(club, "six")
    finished_game(nimmt, [alice, bob], [[1, 20]])
    nimmt_rating = PlayerRating.objects.get(user=alice, kind="nimmt")
    finished_game(six, [alice, bob], [[3, 0]])  # Bob wins the Six game
    assert PlayerRating.objects.get(user=alice, kind="nimmt") == nimmt_rating
    assert (nimmt_rating.mu, nimmt_rating.games) == (
        PlayerRating.objects.get(user=alice, kind="nimmt").mu,
        1,
    )
    six_alice = PlayerRating.objects.get(user=alice, kind="six")
    six_bob = PlayerRating.objects.get(user=bob, kind="six")
    assert six_bob.mu > six_alice.mu and six_alice.games == 1
    assert PlayerRating.objects.filter(user=alice).count() == 2


def test_a_six_season_recomputes_to_the_same_standings(club, alice, bob, carol):
    season = a_season(club, "six")
    nimmt = a_season(club, "nimmt")
    finished_game(season, [alice, bob, carol], [[4, 0, 1], [0, 2, 3]])
    finished_game(nimmt, [alice, bob], [[5, 2]])
    finished_game(season, [carol, bob], [[0, 6]])

    def figures():
        return (
            sorted(
                Standing.objects.filter(season=season).values_list(
                    "user_id", "games", "rounds", "heads", "wins", "points", "mu", "sigma"
                )
            ),
            sorted(PlayerRating.objects.values_list("user_id", "kind", "mu", "sigma", "games")),
        )

    before = figures()
    league_services.season_recompute(season=season)
    assert figures() == before


def test_a_game_of_another_kind_never_enters_a_season(club, alice, bob):
    season = a_season(club, "six")
    table = Table.objects.create(created_by=alice, seats_count=2, kind="nimmt")
    LeagueTable.objects.create(table=table, season=season)
    game = Game.objects.create(table=table, seed=1, state={}, finished_at=timezone.now())
    league_services.game_finished(game=game)
    assert not Standing.objects.filter(season=season).exists()


def test_the_lobby_offers_a_season_only_for_its_game(alice_client, club):
    nimmt = a_season(club, "nimmt")
    six = a_season(club, "six")
    form = alice_client.get(reverse("lobby")).context["form"]
    assert list(form.fields["season"].queryset) == [nimmt]
    data = {"name": "Six night", "kind": "six", "seats_count": 4, "deck": 40, "target": 30}
    data |= {"time_limit": 0, "is_public": "on"}
    refused = alice_client.post(reverse("lobby"), {**data, "season": nimmt.pk})
    assert refused.status_code == 400 and not Table.objects.exists()
    alice_client.post(reverse("lobby"), {**data, "season": six.pk})
    assert Table.objects.get(name="Six night").league_table.season == six


def play_out(table):
    """Play a started game to its end: each member plays what the time-out would."""
    game_engine = engine.get(table.kind)
    for _ in range(2000):
        state = game_engine.load(Game.objects.get(table=table).state)
        if game_engine.is_over(state):
            return Game.objects.get(table=table)
        seat = min(game_engine.to_act(state))
        user = table.seats.get(position=seat).user
        decision = game_engine.fallback(state, seat)
        services.game_decide(table_id=table.pk, user=user, decision=decision)
    raise AssertionError("the game did not end")


def test_a_six_season_shows_standings_from_a_game_played_to_its_end(club, alice, bob, client):
    season = a_season(club, "six")
    table = services.table_create(
        user=alice, kind="six", seats_count=4, options={"target": 10}, season=season
    )
    services.seat_join(table_id=table.pk, user=bob)
    for _ in range(2):
        services.seat_add_bot(table_id=table.pk, user=alice, bot="six_heuristic")
    services.table_start(table_id=table.pk, user=alice)
    game = play_out(table)
    totals = game.result["totals"]
    assert max(totals) >= 10
    standings = {s.user.username: s for s in Standing.objects.filter(season=season)}
    assert (standings["alice"].heads, standings["bob"].heads) == (totals[0], totals[1])
    assert standings["alice"].rounds == len(game.result["rounds"])
    page = client.get(reverse("league", args=[club.slug]) + f"?season={season.pk}")
    html = page.content.decode()
    assert "Points per hand" in html and "Six" in html
    assert [row.player for row in page.context["rows"]] == [
        name
        for name, _total in sorted(
            [("Alice", totals[0]), ("Bob", totals[1])], key=lambda pair: -pair[1]
        )
    ]
    profile = client.get(reverse("profile", args=["alice"]))
    assert [f["kind"].name for f in profile.context["game_figures"]] == ["six"]
    assert profile.context["game_figures"][0]["rating"].kind == "six"


def test_seating_a_six_evening_makes_six_tables(club, alice, bob, carol, dave):
    from leagues.models import Evening

    season = a_season(club, "six")
    evening = Evening.objects.create(season=season, date=timezone.localdate(), table_size=4)
    evening.players.set([alice, bob, carol, dave])
    (table,) = league_services.seating_generate(event=evening, seed=1)
    assert table.kind == "six" and table.options == engine.get("six").normalize_options({}, 4)


def test_a_six_tournament_ranks_the_most_points_first(club, alice, bob, client):
    from leagues.models import Tournament

    season = a_season(club, "six")
    cup = Tournament.objects.create(season=season, name="Cup", date=timezone.localdate())
    game = finished_game(season, [alice, bob], [[3, 0]])  # Bob: +8, Alice: -3
    cup.seated_tables.create(round=1, number=1, table=game.table)
    rows = selectors.tournament_standings(tournament=cup)
    assert [(row.user.username, row.heads, row.rank) for row in rows] == [
        ("bob", 8, 1),
        ("alice", -3, 2),
    ]
    html = client.get(cup.get_absolute_url()).content.decode()
    assert "Most points first" in html and '<th class="num">Points</th>' in html


def test_a_surprise_season_shows_standings_from_a_game_played_to_its_end(club, alice, bob, client):
    """Issue 22: a league season of 6 qui surprend (heads per round, fewest first)."""
    season = a_season(club, "surprise")
    table = services.table_create(
        user=alice, kind="surprise", seats_count=3, options={}, season=season
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="surprise_heuristic")
    services.table_start(table_id=table.pk, user=alice)
    game = play_out(table)
    totals = game.result["totals"]
    assert len(game.result["rounds"]) == 2  # RULES §2.5: always two rounds
    standings = {s.user.username: s for s in Standing.objects.filter(season=season)}
    assert (standings["alice"].heads, standings["bob"].heads) == (totals[0], totals[1])
    assert standings["alice"].rounds == 2
    page = client.get(reverse("league", args=[club.slug]) + f"?season={season.pk}")
    assert "6 qui surprend" in page.content.decode()
    expected = sorted([("Alice", totals[0]), ("Bob", totals[1])], key=lambda pair: pair[1])
    assert [row.player for row in page.context["rows"]] == [name for name, _t in expected] or (
        totals[0] == totals[1]
    )
    assert PlayerRating.objects.get(user=alice, kind="surprise").games == 1
