"""A selection that is not the last of its turn is stored in one statement
(games.services._select_within_turn): what it must keep of the full path's guarantees.

These tests commit for real (transaction=True): the kept game a process remembers after a
commit is what the one-statement path starts from.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, rendering, services
from games.models import Decision, Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")


def stored(table):
    return Game.objects.get(table=table)


def select(table, users, seat, index=0, **extra):
    card = nimmt.load(stored(table).state).hands[seat][index]
    decision = {"type": "select", "card": card}
    return services.game_decide(table_id=table.pk, user=users[seat], decision=decision, **extra)


def test_a_selection_within_a_turn_is_one_statement_and_lands_whole(three):
    table, users = three
    select(table, users, 0)  # the full path; the process now keeps the game
    before = stored(table)
    card = nimmt.load(before.state).hands[1][2]
    with CaptureQueriesContext(connection) as queries:
        accepted = services.game_decide(
            table_id=table.pk, user=users[1], decision={"type": "select", "card": card}
        )
    statements = [q["sql"].split()[0] for q in queries]
    if connection.vendor == "postgresql":
        assert statements == ["WITH"], statements  # UPDATE and INSERT, autocommitted
        # Only the state's changed entries are sent, merged by PostgreSQL into the stored
        # state (nimmt.dump_changes): the whole state is checked below.
        assert "state = state || " in queries[0]["sql"]
        assert len(queries[0]["sql"]) < 1500, queries[0]["sql"]
    else:
        assert statements == ["BEGIN", "UPDATE", "INSERT", "COMMIT"], statements
    after = stored(table)
    assert accepted.version == after.version == before.version + 1
    assert after.point_version == before.point_version
    logged = Decision.objects.get(game=after, seq=after.version)
    chosen = {"type": "select", "card": card}
    assert (logged.seat, logged.source, logged.payload) == (1, "player", chosen)
    expected, _events = nimmt.apply(nimmt.load(before.state), 1, chosen)
    assert after.state == nimmt.dump(expected)
    # What this process keeps for the screens is that very version.
    assert rendering.snapshot_at(table.pk, after.version).state == expected


def test_the_last_selection_of_the_turn_reveals_through_the_full_path(three):
    table, users = three
    for seat in (0, 1, 2):
        select(table, users, seat)
    state = nimmt.load(stored(table).state)
    assert state.turn == 2 or state.phase == "choose_row"
    assert list(Decision.objects.order_by("seq").values_list("seq", flat=True)) == [1, 2, 3]


def test_a_resent_selection_is_acknowledged_and_applied_once(three):
    table, users = three
    select(table, users, 0)
    first = select(table, users, 1, client_id="m-1")
    again = select(table, users, 1, client_id="m-1")
    assert again.duplicate and again.version == first.version == stored(table).version
    assert Decision.objects.filter(seat=1).count() == 1


def test_a_game_moved_by_another_process_is_not_overwritten(three):
    table, users = three
    select(table, users, 0)
    # This process keeps the game at version 1; another process then applies Bob's
    # selection (simulated by putting back what this process kept before it).
    kept = rendering.snapshot_at(table.pk, 0)
    select(table, users, 1)
    rendering._snapshots[table.pk] = kept
    select(table, users, 2)  # the statement finds version 2, not 1: the full path runs
    decisions = list(Decision.objects.order_by("seq").values_list("seq", "seat"))
    assert decisions[:3] == [(1, 0), (2, 1), (3, 2)]
    state = nimmt.load(stored(table).state)
    # All three selections counted: the turn was revealed.
    assert state.turn == 2 or state.phase == "choose_row"


def test_a_seat_marked_away_by_the_admin_stops_the_short_path(three):
    table, users = three
    select(table, users, 0)
    seat = Seat.objects.get(table=table, position=2)
    seat.away = True
    seat.save()  # bumps seats_version: the kept seats no longer match
    select(table, users, 1)
    sources = list(Decision.objects.order_by("seq").values_list("seat", "source"))
    # Carol's fallback played in the same decision: the turn is complete.
    assert sources[:3] == [(0, "player"), (1, "player"), (2, "away")]


def test_the_full_path_sees_a_table_changed_elsewhere(three):
    """The locked read reuses the kept game and table only while nothing of them that a
    decision depends on has changed in the database (here: the time limit, set the way
    another process or a bulk update would, without this process hearing of it)."""
    from games.models import Table

    table, users = three
    select(table, users, 0)
    select(table, users, 1)  # the process keeps the game at this version
    assert stored(table).deadline is None
    Table.objects.filter(pk=table.pk).update(time_limit=60)
    select(table, users, 2)  # the last selection: the full path, a new decision point
    after = stored(table)
    assert after.deadline is not None  # the new time limit, not the kept table's none
    assert rendering.snapshot_at(table.pk, after.version).table.time_limit == 60


def test_the_full_path_on_a_kept_game_reads_nothing_but_its_lock(three):
    table, users = three
    select(table, users, 0)
    select(table, users, 1)
    last = nimmt.load(stored(table).state).hands[2][0]
    with CaptureQueriesContext(connection) as queries:
        services.game_decide(
            table_id=table.pk, user=users[2], decision={"type": "select", "card": last}
        )
    reads = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1, reads  # the game's row: seats and state are the kept ones
    if connection.vendor == "postgresql":
        assert "FOR UPDATE" in reads[0], reads


def test_the_full_path_writes_its_rows_and_the_game_in_one_statement(three):
    """A decision on the full path (a reveal, a row taken, the end of the round) writes the
    decisions, the picked-up cards, the score lines and the game's row together: one
    statement on PostgreSQL. Played to the end, the rows add up to the game's state."""
    table, users = three
    writes_per_decision = []
    while True:
        state = nimmt.load(stored(table).state)
        if nimmt.is_over(state):
            break
        seat = nimmt.to_act(state)[0]
        view = nimmt.view(state, seat)
        if view["phase"] == "choose_row":
            decision = {"type": "row", "row": 0}
        else:
            decision = {"type": "select", "card": view["hand"][0]}
        with CaptureQueriesContext(connection) as queries:
            services.game_decide(table_id=table.pk, user=users[seat], decision=decision)
        writes = [
            q["sql"].split()[0]
            for q in queries
            if q["sql"].split()[0] in ("INSERT", "UPDATE", "WITH")
            and "FOR UPDATE" not in q["sql"]
            # The end of the game also marks the table finished (its own row).
            and not q["sql"].startswith('UPDATE "games_table"')
        ]
        writes_per_decision.append(writes)
    if connection.vendor == "postgresql":
        assert [w for w in writes_per_decision if w != ["WITH"]] == []
    game = stored(table)
    state = nimmt.load(game.state)
    assert list(game.decisions.values_list("seq", flat=True)) == list(range(1, game.version + 1))
    from games.models import RoundScore, TakenCard

    assert [
        list(
            RoundScore.objects.filter(game=game, round=1)
            .order_by("seat")
            .values_list("heads", flat=True)
        )
    ] == [list(heads) for heads in state.round_scores]
    for seat in range(3):
        taken = TakenCard.objects.filter(game=game, seat=seat)
        assert sum(taken.values_list("heads", flat=True)) == state.round_scores[0][seat]
    assert game.result is not None and game.finished_at is not None
