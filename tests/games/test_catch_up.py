"""A version committed by another process, read on the event loop (rendering.catch_up).

With two server processes, a table's players are split across both: every decision made
in one leaves the other's kept version behind. That process then reads the game's row on
its event loop's own connection (games.loopdb), keeping its table and seats, instead of
reading everything through the ORM in a thread; a selection that found the game moved
is planned again from there. Anything else (the seats or the table changed, a game at its
end) is still read in a thread. PostgreSQL only, like the loop's connections.
"""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connection

from games import engine, hub, loopdb, rendering, services
from games.models import GAME_PLAY_FIELDS, Decision, Game, Table
from tests.games import ws
from tests.games.ws import game_state, setup_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the event loop's reads are PostgreSQL's"
    ),
]
nimmt = engine.get("nimmt")


@database_sync_to_async
def move_elsewhere(table, seat, with_changes=False) -> int:
    """What another process's selection looks like from here: the game's row and its
    decision log move on, and this process's kept version does not. The new version.
    `with_changes`: the row keeps the changed entries, as the event loop's statements
    store them (`Game.changes`)."""
    game = Game.objects.get(table=table)
    state = nimmt.load(game.state)
    card = state.hands[seat][0]
    moved, _events = nimmt.apply(state, seat, {"type": "select", "card": card})
    if with_changes:
        Game.objects.filter(pk=game.pk).update(
            changes=nimmt.dump_changes(state, moved), changes_from=game.version
        )
    Decision.objects.create(
        game=game,
        seq=game.version + 1,
        seat=seat,
        payload={"type": "select", "card": card},
        source=Decision.Source.PLAYER,
    )
    Game.objects.filter(pk=game.pk).update(state=nimmt.dump(moved), version=game.version + 1)
    return game.version + 1


@database_sync_to_async
def frames_from_the_database(table, users) -> list[str]:
    snapshot = rendering.read_snapshot(table.pk, keep=False)
    return [rendering.live_frame(snapshot, user, "fr") for user in users]


async def test_a_version_moved_elsewhere_is_read_on_the_loop(three):
    table, users = three
    kept = await database_sync_to_async(rendering.read_snapshot)(table.pk)
    version = await move_elsewhere(table, 2)

    # On the event loop: a read through the ORM here would raise SynchronousOnlyOperation.
    snapshot = await rendering.catch_up(table.pk, version)
    try:
        assert snapshot is not None and snapshot.version == version
        assert snapshot.table is kept.table and snapshot.seats is kept.seats  # reused
        assert rendering.snapshot_at(table.pk, version) is snapshot  # kept for the others
        stored = await database_sync_to_async(Game.objects.get)(table=table)
        assert snapshot.game.state == stored.state
        assert nimmt.dump(snapshot.state) == stored.state
        assert snapshot.state == nimmt.load(stored.state)
        # Only the entries that changed were loaded (nimmt.load_changes).
        assert snapshot.state.hands is kept.state.hands
        assert snapshot.state.selections is not kept.state.selections
        # Every seat's screen as if the whole table had been read through the ORM.
        ordered = [users[position] for position in sorted(users)]
        frames = [rendering.live_frame(snapshot, user, "fr") for user in ordered]
        assert frames == await frames_from_the_database(table, ordered)
        assert "✓" in rendering.update_frame(snapshot, 0, "fr", hand=False)
    finally:
        await loopdb.close()


def state_read(row) -> dict | None:
    return row[2 + GAME_PLAY_FIELDS.index("state")]


async def test_a_version_stored_with_its_changes_is_read_from_them(three):
    table, users = three
    kept = await database_sync_to_async(rendering.read_snapshot)(table.pk)
    version = await move_elsewhere(table, 2, with_changes=True)
    stored = await database_sync_to_async(Game.objects.get)(table=table)
    try:
        # The row holds the changes from the kept version: its state is not sent...
        row = await loopdb.fetchone(*rendering._catch_up_query(kept.game.pk, kept.version))
        assert row[1] == stored.changes and set(row[1]) < set(stored.state)
        assert state_read(row) is None
        # ...but to a process that kept another version, it is.
        row = await loopdb.fetchone(*rendering._catch_up_query(kept.game.pk, kept.version - 1))
        assert row[1] is None and state_read(row) == stored.state

        snapshot = await rendering.catch_up(table.pk, version)
        assert snapshot.version == version and snapshot.table is kept.table
        assert snapshot.game.state == stored.state
        assert snapshot.state == nimmt.load(stored.state)
        ordered = [users[position] for position in sorted(users)]
        frames = [rendering.live_frame(snapshot, user, "fr") for user in ordered]
        assert frames == await frames_from_the_database(table, ordered)

        # A later write that leaves the changes behind (the ORM's, a thread's): they no
        # longer describe the row, and the whole state is read.
        later = await move_elsewhere(table, 0)
        row = await loopdb.fetchone(*rendering._catch_up_query(kept.game.pk, version - 1))
        assert row[1] is None and state_read(row) is not None
        snapshot = await rendering.catch_up(table.pk, later)
        stored = await database_sync_to_async(Game.objects.get)(table=table)
        assert snapshot.version == later and snapshot.game.state == stored.state
        assert snapshot.state == nimmt.load(stored.state)
    finally:
        await loopdb.close()


def move_announced(kept, stored) -> dict:
    """The move another process announces with the version `stored` it made from `kept`."""
    return rendering.move_of(kept.table, stored, stored.changes)


async def test_a_move_announced_is_taken_without_a_read(three, settings):
    # Issue 6 (two processes): the announcement of a decision stored from the event loop
    # carries what it changed; a process that kept the version before builds the new one
    # from it, reading nothing (here it could not: the loop's connections are off).
    table, users = three
    kept = await database_sync_to_async(rendering.read_snapshot)(table.pk)
    version = await move_elsewhere(table, 2, with_changes=True)
    stored = await database_sync_to_async(Game.objects.get)(table=table)
    move = move_announced(kept, stored)
    settings.SIXCLUB_LOOP_SELECTIONS = False
    assert await rendering.catch_up(table.pk, version) is None  # nothing to read it with

    snapshot = await rendering.catch_up(table.pk, version, move)
    assert snapshot.version == version and rendering.snapshot_at(table.pk, version) is snapshot
    assert snapshot.table is kept.table and snapshot.seats is kept.seats
    assert snapshot.game.state == stored.state
    assert snapshot.state == nimmt.load(stored.state)
    for name in GAME_PLAY_FIELDS:
        assert getattr(snapshot.game, name) == getattr(stored, name), name
    ordered = [users[position] for position in sorted(users)]
    frames = [rendering.live_frame(snapshot, user, "fr") for user in ordered]
    assert frames == await frames_from_the_database(table, ordered)


def test_a_tables_print_follows_its_row(three):
    # The print a move carries is kept on the table object with the values it was made
    # from (rendering._table_print): a changed copy, or a changed field, prints anew.
    import copy

    table, _users = three
    table = Table.objects.get(pk=table.pk)
    first = rendering._table_print(table)
    assert rendering._table_print(table) is first  # kept
    assert rendering._table_print(Table.objects.get(pk=table.pk)) == first  # alike
    changed = copy.copy(table)
    changed.time_limit = 45
    assert rendering._table_print(changed) != first
    assert rendering._table_print(table) == first
    table.name = "Renamed"
    assert rendering._table_print(table) != first


def from_elsewhere(move):
    return {**move, "from": move["from"] - 1, "version": move["version"] - 1}


def other_seats(move):
    return {**move, "seats": move["seats"] + 1}


def other_table(move):
    return {**move, "table": move["table"].replace("}", ', "x": 1}')}


def broken(move):
    return {**move, "changes": {"hands": "not a hand"}}


@pytest.mark.parametrize("change", [from_elsewhere, other_seats, other_table, broken])
async def test_a_move_that_does_not_fit_the_kept_version_is_not_taken(three, settings, change):
    table, _users = three
    kept = await database_sync_to_async(rendering.read_snapshot)(table.pk)
    version = await move_elsewhere(table, 2, with_changes=True)
    stored = await database_sync_to_async(Game.objects.get)(table=table)
    move = change(move_announced(kept, stored))
    settings.SIXCLUB_LOOP_SELECTIONS = False
    assert await rendering.catch_up(table.pk, version, move) is None
    assert rendering.snapshot_at(table.pk, version) is None
    settings.SIXCLUB_LOOP_SELECTIONS = True
    try:  # the row is read instead
        snapshot = await rendering.catch_up(table.pk, version, move)
        assert snapshot.version == version and snapshot.game.state == stored.state
    finally:
        await loopdb.close()


async def test_the_moves_of_the_event_loops_decisions_rebuild_their_versions(
    three, settings, no_rate_limit
):
    # Every decision decide_on_loop stores, for a whole round: its announcement's move,
    # applied to the version before as another process kept it, is the stored version.
    table, users = three
    await database_sync_to_async(rendering.read_snapshot)(table.pk)
    moves = 0
    try:
        while True:
            before = rendering.snapshot_at(table.pk, 0)
            if before.game.finished_at is not None or nimmt.is_over(before.state):
                break
            to_act = nimmt.to_act(before.state)
            seat = to_act[0]
            state = before.state
            if state.phase == "choose_row":
                decision = {"type": "row", "row": 0}
            else:
                decision = {"type": "select", "card": state.hands[seat][0]}
            done = await services.decide_on_loop(
                table.pk, users[seat], decision, f"d-{before.version}", before.version
            )
            if done is None:
                break  # the game's end: the thread's business
            accepted, [(_group, event)] = done
            after = rendering.snapshot_at(table.pk, accepted.version)
            # Another process, which kept `before`:
            rendering._snapshots[table.pk] = before
            settings.SIXCLUB_LOOP_SELECTIONS = False
            rebuilt = await rendering.catch_up(table.pk, accepted.version, event["move"])
            settings.SIXCLUB_LOOP_SELECTIONS = True
            assert rebuilt is not None and rebuilt.version == accepted.version
            assert rebuilt.state == after.state
            assert rebuilt.game.state == after.game.state
            for name in ("version", "point_version", "deadline"):
                assert getattr(rebuilt.game, name) == getattr(after.game, name)
            moves += 1
    finally:
        await loopdb.close()
    stored = await database_sync_to_async(Game.objects.get)(table=table)
    assert moves >= 10 and rendering.snapshot_at(table.pk, 0).game.state == stored.state


def bump_seats(table):
    Game.objects.filter(table=table).update(seats_version=99)


def change_time_limit(table):
    Table.objects.filter(pk=table.pk).update(time_limit=45)


def rename(table):
    Table.objects.filter(pk=table.pk).update(name="Renamed elsewhere")


def end(table):
    Game.objects.filter(table=table).update(finished_at="2026-12-04T10:00:00Z")


def forget(table):
    rendering._snapshots.pop(table.pk, None)


@pytest.mark.parametrize("change", [bump_seats, change_time_limit, rename, end, forget])
async def test_anything_but_the_play_is_left_to_a_thread(three, change):
    table, _users = three
    await database_sync_to_async(rendering.read_snapshot)(table.pk)
    version = await move_elsewhere(table, 1)
    await database_sync_to_async(change)(table)
    try:
        assert await rendering.catch_up(table.pk, version) is None
    finally:
        await loopdb.close()
    # The thread's read sees it all.
    assert (await database_sync_to_async(rendering.read_snapshot)(table.pk)).version == version


async def test_off_without_loop_selections(three, settings):
    settings.SIXCLUB_LOOP_SELECTIONS = False
    table, _users = three
    await database_sync_to_async(rendering.read_snapshot)(table.pk)
    version = await move_elsewhere(table, 1)
    assert await rendering.catch_up(table.pk, version) is None


@pytest.fixture
def threads_held():
    """Holds every thread a socket could use (the decision threads and the thread shared
    by every socket's database reads) busy until the test's body has run."""

    async def hold(body):
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        release = threading.Event()
        busy = [
            loop.run_in_executor(None, release.wait, 30),
            asyncio.ensure_future(sync_to_async(release.wait, thread_sensitive=True)(30)),
        ]
        try:
            await body()
        finally:
            release.set()
            await asyncio.gather(*busy)

    return hold


@pytest.mark.parametrize("with_move", [False, True])
async def test_screens_follow_another_process_without_a_thread(
    alice, bob, make_player, threads_held, settings, with_move
):
    carol = await ws.make(make_player, "carol")
    table = await setup_table(alice, others=[bob, carol])
    sockets = await ws.watching(table, alice, bob, carol)
    try:
        kept = rendering.snapshot_at(table.pk, 0)
        version = await move_elsewhere(table, 2, with_changes=with_move)
        event = {"type": "table.changed", "table": table.pk, "version": version}
        if with_move:
            stored = await database_sync_to_async(Game.objects.get)(table=table)
            event["move"] = move_announced(kept, stored)
            settings.SIXCLUB_LOOP_SELECTIONS = False  # nothing read: the move is enough

        async def body():
            # What this process's hub hands its sockets when another process announces.
            hub.current().deliver(table.pk, event)
            for communicator in sockets:
                frame = await ws.receive(communicator)
                assert 'id="players"' in frame and frame.count("✓") == 1, frame

        await threads_held(body)
        assert rendering.snapshot_at(table.pk, version).version == version
    finally:
        for communicator in sockets:
            await communicator.disconnect()


async def test_a_selection_on_a_game_moved_elsewhere_is_planned_again(
    alice, bob, make_player, threads_held
):
    carol = await ws.make(make_player, "carol")
    table = await setup_table(alice, others=[bob, carol])
    sockets = await ws.watching(table, alice, bob, carol)
    try:
        moved = await move_elsewhere(table, 2)
        state = await game_state(table)
        card = state.hands[0][0]

        async def body():
            # This process still keeps the version before: its statement stores nothing,
            # the game is read on the loop, and the selection stored on top of seat 2's.
            await ws.send(sockets[0], type="select", card=card, version=state.version, id="s-1")
            frames = [await ws.receive(sockets[0]) for _ in range(2)]
            assert f'data-request="s-1" data-version="{moved + 1}"' in frames[0], frames

        await threads_held(body)
        log = await database_sync_to_async(list)(
            Decision.objects.filter(game__table=table, seq__gte=moved)
            .order_by("seq")
            .values_list("seq", "seat")
        )
        assert log == [(moved, 2), (moved + 1, 0)]
        after = await game_state(table)
        assert after.version == moved + 1
        assert after.selections[0] == card and after.selections[2] == state.selections[2] != 0
    finally:
        for communicator in sockets:
            await communicator.disconnect()
