import pytest

from games import engine, services
from games.models import Game
from leagues import scoring, selectors
from leagues import services as league_services
from leagues.models import LeagueGame, Placing, PlayerRating, Season, Standing
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db


def standing(season, user) -> Standing:
    return Standing.objects.get(season=season, user=user)


def ranks(season, **sort):
    return [(row.player, row.rank) for row in selectors.season_standings(season=season, **sort)]


def test_a_finished_game_adds_games_rounds_heads_and_a_win(season, alice, bob):
    finished_game(season, [alice, bob], [[3, 10], [5, 2]])
    alice_row, bob_row = standing(season, alice), standing(season, bob)
    assert (alice_row.games, alice_row.rounds, alice_row.heads, alice_row.wins) == (1, 2, 8, 1)
    assert (bob_row.games, bob_row.rounds, bob_row.heads, bob_row.wins) == (1, 2, 12, 0)
    assert alice_row.trend == [[8, 2]]
    assert alice_row.last_played == Game.objects.get().finished_at


def test_a_game_enters_the_league_once(season, alice, bob):
    game = finished_game(season, [alice, bob], [[3, 10]])
    league_services.game_finished(game=game)
    league_services.game_finished(game=game)
    assert LeagueGame.objects.count() == 1
    assert Placing.objects.count() == 2
    assert standing(season, alice).games == 1
    assert PlayerRating.objects.get(user=alice).games == 1


def test_equal_first_places_share_the_win(season, alice, bob, carol):
    finished_game(season, [alice, bob, carol], [[4, 4, 9]])
    assert [standing(season, u).wins for u in (alice, bob, carol)] == [1, 1, 0]
    places = dict(Placing.objects.values_list("user__username", "place"))
    assert places == {"alice": 1, "bob": 1, "carol": 3}


def test_bots_are_left_out_of_standings_but_still_beat_members(season, alice, bob):
    finished_game(season, [alice, "heuristic", bob], [[6, 1, 9]])
    assert Standing.objects.filter(season=season).count() == 2
    alice_row = standing(season, alice)
    assert (alice_row.wins, Placing.objects.get(user=alice).place) == (0, 2)
    assert Placing.objects.get(user=bob).place == 3


def test_a_game_alone_with_bots_leaves_the_rating_unchanged(season, alice):
    finished_game(season, [alice, "random", "random"], [[1, 8, 9]])
    row = standing(season, alice)
    assert (row.games, row.wins) == (1, 1)
    assert (row.mu, row.sigma) == (scoring.START_MU, scoring.START_SIGMA)


def test_fewer_heads_raise_the_rating_and_history_is_kept(season, alice, bob):
    finished_game(season, [alice, bob], [[2, 12]])
    finished_game(season, [alice, bob], [[1, 7]])
    alice_row, bob_row = standing(season, alice), standing(season, bob)
    assert alice_row.mu > scoring.START_MU > bob_row.mu
    assert alice_row.sigma < scoring.START_SIGMA
    assert alice_row.rating > bob_row.rating
    history = list(
        Placing.objects.filter(user=alice).order_by("entry_id").values_list("mu", flat=True)
    )
    assert len(history) == 2 and history[0] < history[1] == alice_row.mu


def test_the_overall_rating_follows_a_player_across_seasons(season, alice, bob):
    other = Season.objects.create(league=season.league, name="Cup", starts_on=season.starts_on)
    finished_game(season, [alice, bob], [[2, 12]])
    finished_game(other, [alice, bob], [[3, 11]])
    overall = PlayerRating.objects.get(user=alice)
    assert overall.games == 2
    # Each season starts from scratch; the overall rating saw both wins.
    assert standing(other, alice).mu == standing(season, alice).mu
    assert overall.mu > standing(other, alice).mu


def test_mean_heads_per_round_ranks_by_default(season, alice, bob, carol):
    finished_game(season, [alice, bob], [[10, 20], [10, 0]])  # alice 10/round, bob 10/round
    finished_game(season, [carol, bob], [[1, 30]])  # carol 1/round, bob now 50/3
    assert ranks(season) == [("Carol", 1), ("Alice", 2), ("Bob", 3)]


def test_total_heads_ranks_by_cumulative_heads(season, alice, bob, carol):
    season.ranking = Season.Ranking.TOTAL_HEADS
    finished_game(season, [alice, bob, carol], [[10, 4, 4], [1, 4, 4], [1, 4, 4]])
    assert ranks(season) == [("Alice", 1), ("Bob", 1), ("Carol", 1)]
    finished_game(season, [bob, carol], [[1, 0]])
    # Equal totals share the rank; the one with more games is listed first.
    assert ranks(season) == [("Carol", 1), ("Alice", 1), ("Bob", 3)]


def test_placement_points_rank_by_the_seasons_table(season, alice, bob, carol, dave):
    season.ranking = Season.Ranking.PLACEMENT
    season.placement_points = "10, 4, 1"
    season.save()
    finished_game(season, [alice, bob, carol, dave], [[1, 2, 3, 4]])  # 10, 4, 1, 0
    finished_game(season, [alice, bob, carol, dave], [[9, 2, 2, 1]])  # 0, 4, 4, 10
    points = dict(Standing.objects.values_list("user__username", "points"))
    assert points == {"alice": 10, "bob": 8, "carol": 5, "dave": 10}
    assert ranks(season) == [("Alice", 1), ("Dave", 1), ("Bob", 3), ("Carol", 4)]


def test_rating_ranks_by_the_conservative_rating(season, alice, bob, carol):
    season.ranking = Season.Ranking.RATING
    for _ in range(3):
        finished_game(season, [alice, bob, carol], [[12, 1, 30]])
    assert ranks(season) == [("Bob", 1), ("Alice", 2), ("Carol", 3)]
    rows = selectors.season_standings(season=season)
    assert rows[0].rating == pytest.approx(rows[0].standing.mu - 3 * rows[0].standing.sigma)


def test_players_below_the_minimum_of_games_are_listed_unranked(season, alice, bob, carol):
    season.min_games = 2
    finished_game(season, [alice, bob], [[5, 9]])
    finished_game(season, [alice, carol], [[8, 1]])
    assert ranks(season) == [("Alice", 1), ("Carol", None), ("Bob", None)]


def test_columns_sort_either_way(season, alice, bob, carol):
    finished_game(season, [alice, bob, carol], [[4, 9, 2]])
    finished_game(season, [alice, bob], [[4, 9]])
    by_games = [row.player for row in selectors.season_standings(season=season, sort="games")]
    assert by_games[-1] == "Carol"
    by_player = selectors.season_standings(season=season, sort="player", descending=True)
    assert [row.player for row in by_player] == ["Carol", "Bob", "Alice"]
    by_heads = selectors.season_standings(season=season, sort="heads", descending=False)
    assert [row.heads for row in by_heads] == [2, 8, 18]


def test_a_league_table_played_to_the_end_enters_its_season(season, alice, bob):
    table = services.table_create(
        user=alice, seats_count=3, options={"end": "rounds", "rounds": 1}, season=season
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    services.table_start(table_id=table.pk, user=alice)
    # Both players leave: the fallback of RULES §1.8 plays their cards to the end.
    services.seat_remove(table_id=table.pk, user=alice)
    services.seat_remove(table_id=table.pk, user=bob)
    game = Game.objects.get(table=table)
    assert game.finished_at is not None
    entry = LeagueGame.objects.get(game=game)
    result = engine.get("nimmt").load(game.state)
    placings = {p.seat: p.heads for p in entry.placings.all()}
    assert placings == {0: result.totals[0], 1: result.totals[1]}
    assert standing(season, alice).games == standing(season, bob).games == 1


def test_recomputing_from_the_score_sheets_gives_what_was_accumulated(
    season, alice, bob, carol, dave
):
    import random

    other = Season.objects.create(
        league=season.league, name="Cup", starts_on=season.starts_on, ranking="placement"
    )
    rng = random.Random(7)
    people = [alice, bob, carol, dave, "random"]
    for number in range(40):
        at = rng.sample(people, rng.randint(2, 5))
        if all(isinstance(p, str) for p in at):
            at.append(alice)
        rounds = [[rng.randint(0, 20) for _ in at] for _ in range(rng.randint(1, 4))]
        finished_game(season if number % 3 else other, at, rounds)

    def snapshot():
        standings = sorted(
            Standing.objects.values_list(
                "season_id", "user_id", "games", "rounds", "heads", "wins", "points", "mu",
                "sigma", "last_played", "trend",
            )
        )  # fmt: skip
        placings = sorted(
            Placing.objects.values_list(
                "entry__game_id", "user_id", "seat", "heads", "rounds", "place", "won", "points",
                "mu", "sigma", "overall_mu", "overall_sigma", "finished_at",
            )
        )  # fmt: skip
        ratings = sorted(PlayerRating.objects.values_list("user_id", "mu", "sigma", "games"))
        return standings, placings, ratings

    accumulated = snapshot()
    Standing.objects.all().delete()
    Placing.objects.filter(season=season).delete()
    PlayerRating.objects.all().delete()
    assert (
        league_services.season_recompute(season=season)
        == LeagueGame.objects.filter(season=season).count()
    )
    assert league_services.season_recompute(season=other) > 0
    assert snapshot() == accumulated


def test_recomputing_enters_a_finished_game_that_never_entered(season, alice, bob):
    finished_game(season, [alice, bob], [[1, 5]])
    finished_game(season, [alice, bob], [[9, 5]], enter=False)
    assert standing(season, alice).games == 1
    league_services.season_recompute(season=season)
    assert standing(season, alice).games == 2
    assert standing(season, bob).wins == 1
