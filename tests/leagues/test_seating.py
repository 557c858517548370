import datetime
from itertools import combinations

import pytest

from games import engine, services
from games.models import Game, Table
from leagues import selectors
from leagues import services as league_services
from leagues.models import Evening, Membership, Tournament
from leagues.seating import table_sizes
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


@pytest.fixture
def members(club, make_player):
    """Sixteen active members of the club, Alice, Bob, Carol and Dave among them."""

    def make(count):
        users = [m.user for m in club.memberships.select_related("user").order_by("user_id")]
        for number in range(len(users), count):
            user = make_player(f"player{number:02d}", display_name=f"Player {number:02d}")
            Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
            users.append(user)
        return users[:count]

    return make


def tournament(season, players, **fields):
    fields.setdefault("rounds", 3)
    event = Tournament.objects.create(
        season=season, name="Spring cup", date=datetime.date.today(), game_rounds=1, **fields
    )
    event.players.set(players)
    return event


def seated(table: Table) -> list[int]:
    return [seat.user_id for seat in table.seats.order_by("position")]


def play_out(tables):
    """Start each table and let everyone leave: the RULES §1.8 fallback finishes it."""
    for table in tables:
        services.table_start(table_id=table.pk, user=None)  # as the night panel
        for seat in table.seats.select_related("user"):
            services.seat_remove(table_id=table.pk, user=seat.user)
        assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_tables_are_split_as_evenly_as_possible():
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(3, 2) == [3]
    assert table_sizes(12, 5, equal=False) == [4, 4, 4]
    # A range: as few tables of at most 5 as can be, none under 4.
    assert table_sizes(9, 5, smallest=4) == [5, 4]
    assert table_sizes(9, 4, smallest=3) == [3, 3, 3]
    assert table_sizes(11, 5, smallest=4) == [6, 5]  # the fewest kept before the most


def test_a_seating_creates_league_tables_ready_to_play(season, members):
    players = members(10)
    event = tournament(season, players)
    tables = league_services.seating_generate(event=event, seed=1)
    assert sorted(len(seated(t)) for t in tables) == [3, 3, 4]
    assert sorted(u for t in tables for u in seated(t)) == sorted(p.pk for p in players)
    for number, table in enumerate(tables, start=1):
        assert table.league_table.season == season
        assert table.status == Table.Status.OPEN
        assert table.seats_count == len(seated(table))
        assert table.created_by_id == seated(table)[0]  # with no power (issue 29)
        assert table.options["end"] == "rounds" and table.options["rounds"] == 1
        assert table.tournament_slot.round == 1 and table.tournament_slot.number == number
    # Ready to play: the league's admin starts it.
    game = services.table_start(table_id=tables[0].pk, user=season.league.admins.get())
    assert game.pk


def test_rounds_avoid_repeat_opponents(season, members):
    players = members(16)
    event = tournament(season, players, rounds=3)
    met = set()
    for _round in range(3):
        tables = league_services.seating_generate(event=event, seed=_round)
        pairs = {frozenset(p) for t in tables for p in combinations(seated(t), 2)}
        assert not pairs & met, "two players met again"
        met |= pairs
        play_out(tables)
    assert len(met) == 3 * 4 * 6
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.seating_generate(event=event)
    assert refused.value.code == "all_seated"


def test_by_standing_players_of_similar_rank_meet(season, members):
    players = members(8)
    # A season where player i took i heads a round: the standing is the list's order.
    for first, second in zip(players[::2], players[1::2], strict=True):
        finished_game(season, [first, second], [[players.index(first), players.index(second)]])
    evening = Evening.objects.create(
        season=season, date=datetime.date.today(), seating="standing", table_size=4
    )
    evening.players.set(players)
    tables = league_services.seating_generate(event=evening, seed=3)
    groups = sorted(sorted(seated(t)) for t in tables)
    top, bottom = sorted(p.pk for p in players[:4]), sorted(p.pk for p in players[4:])
    assert groups == sorted([top, bottom])
    assert all(t.evening_slot.evening == evening for t in tables)


def test_the_next_round_waits_for_the_last_one(season, members):
    event = tournament(season, members(8))
    league_services.seating_generate(event=event, seed=1)
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.seating_generate(event=event, seed=2)
    assert refused.value.code == "round_not_over"


def test_duplicate_tables_of_a_round_are_dealt_the_same_cards(season, members):
    event = tournament(season, members(12), duplicate=True)
    tables = league_services.seating_generate(event=event, seed=5)
    assert len(tables) == 3
    assert len({t.deal_seed for t in tables}) == 1 and tables[0].deal_seed
    states = []
    for table in tables:
        services.table_start(table_id=table.pk, user=None)  # as the night panel
        states.append(nimmt.load(Game.objects.get(table=table).state))
    assert all(s.hands == states[0].hands for s in states)
    assert all(s.rows == states[0].rows for s in states)


def test_duplicate_gives_a_bye_to_whom_a_full_table_cannot_take(season, members):
    from leagues.models import Absence

    players = members(7)
    event = tournament(season, players, duplicate=True)
    (table,) = league_services.seating_generate(event=event, seed=2)
    byes = set(Absence.objects.filter(tournament=event, bye=True).values_list("user", flat=True))
    assert len(seated(table)) == 4 and len(byes) == 3
    assert byes | set(seated(table)) == {p.pk for p in players}


def test_duplicate_needs_one_full_table(season, members):
    event = tournament(season, members(3), duplicate=True)
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.seating_generate(event=event)
    assert refused.value.code == "bad_count"


def test_present_players_must_be_members(season, members, make_player):
    outsider = make_player("eve", display_name="Eve")
    event = tournament(season, [*members(3), outsider])
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.seating_generate(event=event)
    assert refused.value.code == "not_member" and "Eve" in refused.value.message
    assert not Table.objects.exists()


def test_tournament_standings_count_heads_then_placement_points(season, members):
    alice, bob, carol, dave = members(4)
    event = tournament(season, [alice, bob, carol, dave])
    # Alice and Bob both take 10 heads; Bob placed better, so his points break the tie.
    games = [
        finished_game(season, [alice, carol], [[2, 9]]),
        finished_game(season, [bob, dave], [[4, 3]]),
        finished_game(season, [alice, bob, carol], [[8, 6, 7]]),
        finished_game(season, [carol, dave], [[1, 1]]),
    ]
    for number, game in enumerate(games):
        event.seated_tables.create(round=1 + number // 2, number=1 + number % 2, table=game.table)
    rows = selectors.tournament_standings(tournament=event)
    assert [(r.user.username, r.heads, r.points, r.rank) for r in rows] == [
        ("dave", 4, 12, 1),
        ("bob", 10, 11, 2),
        ("alice", 10, 9, 3),
        ("carol", 17, 16, 4),
    ]
