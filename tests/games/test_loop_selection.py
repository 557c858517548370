"""Decisions stored from the event loop (games.loopdb, services.decide_on_loop), through
the real ASGI application on PostgreSQL.

What must hold: a selection within a turn, and a decision that moves the game on at a
table where nobody plays automatically, need no decision thread; what they store is what
the decision log rebuilds; a resend is applied once; a connection that PostgreSQL dropped
costs nothing but a detour through the threads; a game moved behind the process's back,
or a table changed by an admin, is not overwritten.
"""

import asyncio
import contextlib
import itertools
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import engine, loopdb, services
from games.models import Decision, Game, RoundScore, Table, TakenCard
from games.replays import rebuild
from tests.games import ws
from tests.games.ws import game_state, setup_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the event loop's statement is PostgreSQL's"
    ),
]
nimmt = engine.get("nimmt")


def ack_version(frame):
    match = re.search(r'id="ack"[^>]*data-request="([^"]*)"[^>]*data-version="(\d+)"', frame)
    return (match.group(1), int(match.group(2))) if match else None


async def acknowledged(communicator, request_id, timeout=3):
    """The version acknowledged for `request_id` (frames before it are skipped)."""
    while True:
        frame = await ws.receive(communicator, timeout=timeout)
        assert 'id="notice"' not in frame, frame
        ack = ack_version(frame)
        if ack is not None and ack[0] == request_id:
            return ack[1]


@pytest.fixture
def seated_sockets(alice, bob, make_player):
    """Plays `body(table, sockets)` at a started table of seated_sockets players, each with a
    socket past its first frame; the sockets are closed afterwards."""
    carol = make_player("carol")

    async def play(body):
        table = await setup_table(alice, others=[bob, carol])
        sockets = await ws.watching(table, alice, bob, carol)
        try:
            await body(table, sockets)
        finally:
            for communicator in sockets:
                await communicator.disconnect()

    return play


async def select(table, sockets, seat, request_id, index=0):
    state = await game_state(table)
    card = state.hands[seat][index]
    await ws.send(sockets[seat], type="select", card=card, version=state.version, id=request_id)
    return card


@database_sync_to_async
def decisions(table):
    return list(
        Decision.objects.filter(game__table=table)
        .order_by("seq")
        .values_list("seq", "seat", "client_id")
    )


@contextlib.asynccontextmanager
async def threads_busy():
    """Every decision thread of this loop busy until the block ends."""
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
    release = threading.Event()
    busy = loop.run_in_executor(None, release.wait, 60)
    try:
        yield
    finally:
        release.set()
        await busy


async def test_a_selection_is_stored_without_a_decision_thread(seated_sockets):
    async def body(table, sockets):
        async with threads_busy():
            await select(table, sockets, 0, "m-1")
            version = await acknowledged(sockets[0], "m-1")
        stored = await database_sync_to_async(Game.objects.get)(table=table)
        assert version == stored.version
        assert (await decisions(table))[-1] == (version, 0, "m-1")
        state = await game_state(table)
        assert state.selections[0] != 0 and state.selections[1] == 0  # 0: none yet

    await seated_sockets(body)


async def test_a_resent_selection_is_applied_once(seated_sockets):
    async def body(table, sockets):
        card = await select(table, sockets, 1, "m-7")
        first = await acknowledged(sockets[1], "m-7")
        state = await game_state(table)
        await ws.send(sockets[1], type="select", card=card, version=state.version - 1, id="m-7")
        again = await acknowledged(sockets[1], "m-7")
        assert again >= first
        assert [d for d in await decisions(table) if d[2] == "m-7"] == [(first, 1, "m-7")]

    await seated_sockets(body)


async def test_no_free_connection_costs_a_detour_only(seated_sockets, monkeypatch):
    monkeypatch.setattr(loopdb, "WAIT", 0.05)

    async def body(table, sockets):
        await select(table, sockets, 0, "m-1")
        first = await acknowledged(sockets[0], "m-1")
        # Every connection of the loop in use (as under load, their answers not read yet).
        slots = loopdb._current().slots
        for _ in range(loopdb.SIZE):
            await slots.acquire()
        try:
            await select(table, sockets, 1, "m-2")  # through a thread
            assert await acknowledged(sockets[1], "m-2") == first + 1
        finally:
            for _ in range(loopdb.SIZE):
                slots.release()
        await select(table, sockets, 0, "m-3", index=1)  # the loop's again
        assert await acknowledged(sockets[0], "m-3") == first + 2
        assert await decisions(table) == [
            (first, 0, "m-1"),
            (first + 1, 1, "m-2"),
            (first + 2, 0, "m-3"),
        ]

    await seated_sockets(body)


@database_sync_to_async
def loop_connections(terminate: bool = False) -> int:
    """The loop's PostgreSQL backends on the test database (terminated, if asked)."""
    counted = "count(pg_terminate_backend(pid))" if terminate else "count(*)"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {counted} FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            [loopdb.APPLICATION_NAME],
        )
        return cursor.fetchone()[0]


async def test_a_dropped_connection_costs_a_detour_only(seated_sockets):
    async def body(table, sockets):
        await select(table, sockets, 0, "m-1")
        first = await acknowledged(sockets[0], "m-1")
        assert await loop_connections(terminate=True) >= 1
        await select(table, sockets, 1, "m-2")  # the loop's connection is gone: a thread's
        await acknowledged(sockets[1], "m-2")
        await select(table, sockets, 0, "m-3", index=1)  # a change of card, on a new connection
        last = await acknowledged(sockets[0], "m-3")
        assert await loop_connections() >= 1
        assert await decisions(table) == [
            (first, 0, "m-1"),
            (first + 1, 1, "m-2"),
            (first + 2, 0, "m-3"),
        ]
        assert last == first + 2
        assert (await database_sync_to_async(Game.objects.get)(table=table)).version == last

    await seated_sockets(body)


async def test_a_game_moved_elsewhere_is_not_overwritten(seated_sockets):
    async def body(table, sockets):
        await select(table, sockets, 0, "m-1")
        kept = await acknowledged(sockets[0], "m-1")

        @database_sync_to_async
        def move_elsewhere():
            # What another process's decision looks like from here: a new version, unseen.
            game = Game.objects.get(table=table)
            state = nimmt.load(game.state)
            card = state.hands[2][0]
            moved, _events = nimmt.apply(state, 2, {"type": "select", "card": card})
            game.state, game.version = nimmt.dump(moved), kept + 1
            game.save(update_fields=["state", "version"])
            return card

        card_of_2 = await move_elsewhere()
        await select(table, sockets, 1, "m-2")
        await acknowledged(sockets[1], "m-2")
        state = await game_state(table)
        # Seat 1's selection was the turn's last one on top of seat 2's: the turn was revealed
        # with seat 2's card (from a version this process had not kept, it would be in hand).
        assert card_of_2 not in state.hands[2]
        assert (state.turn, state.phase) != (1, "select")
        assert [d[:2] for d in await decisions(table)][:2] == [(kept, 0), (kept + 2, 1)]

    await seated_sockets(body)


async def play_until(table, sockets, done, prefix="d"):
    """Decide for whichever seat must (the first card of its hand, the first row) until
    `done(state)`; every decision acknowledged at the next version. Returns how many."""
    count = 0
    while not done(state := await game_state(table)):
        if state.phase == "choose_row":
            seat, decision = state.chooser, {"type": "row", "row": 0}
        else:
            seat = next(s for s, card in enumerate(state.selections) if card == 0)
            decision = {"type": "select", "card": state.hands[seat][0]}
        count += 1
        request_id = f"{prefix}-{count}"
        await ws.send(sockets[seat], **decision, version=state.version, id=request_id)
        assert await acknowledged(sockets[seat], request_id) == state.version + 1
    return count


@database_sync_to_async
def stored_and_rebuilt(table):
    """The game's stored row and derived rows, beside what its decision log rebuilds."""
    game = Game.objects.select_related("table").get(table=table)
    taken, scores, point_version = [], [], 0
    steps = list(rebuild(game))
    for version, ((before, _), (after, events)) in enumerate(itertools.pairwise(steps), 1):
        view = nimmt.view(before, None)
        for event in events:
            if event["type"] == "took":
                seat = event["seat"]
                taken += [
                    (view["round"], view["turn"], seat, c, nimmt.heads(c)) for c in event["cards"]
                ]
            elif event["type"] == "round_over":
                scores += [(event["round"], s, h) for s, h in enumerate(event["heads"])]
        if services._decision_point(nimmt, after) != services._decision_point(nimmt, before):
            point_version = version
    stored = {
        "state": game.state,
        "version": game.version,
        "point_version": game.point_version,
        "deadline": game.deadline,
        "taken": sorted(
            TakenCard.objects.filter(game=game).values_list(
                "round", "turn", "seat", "card", "heads"
            )
        ),
        "scores": sorted(
            RoundScore.objects.filter(game=game).values_list("round", "seat", "heads")
        ),
    }
    rebuilt = {
        "state": nimmt.dump(steps[-1][0]),
        "version": len(steps) - 1,
        "point_version": point_version,
        "deadline": None,
        "taken": sorted(taken),
        "scores": sorted(scores),
    }
    return stored, rebuilt


async def test_whole_rounds_are_played_from_the_event_loop(alice, bob, make_player, no_rate_limit):
    """Reveals, rows chosen, a round's end and the next deal: all stored from the event
    loop while every decision thread is busy (RULES §1.3-§1.6), exactly as the log
    rebuilds them."""
    carol = await ws.make(make_player, "carol")
    table = await setup_table(alice, others=[bob, carol], options={"end": "rounds", "rounds": 2})
    sockets = await ws.watching(table, alice, bob, carol)
    try:
        async with threads_busy():
            count = await play_until(table, sockets, lambda state: state.round == 2)
        stored, rebuilt = await stored_and_rebuilt(table)
        assert count >= 30  # ten turns of three selections, and the rows chosen
        assert stored["scores"] and stored["taken"]  # the round's sheet, its piles
        assert stored == rebuilt
        # The row keeps what the last decision changed, for the other processes.
        game = await database_sync_to_async(Game.objects.get)(table=table)
        assert game.changes_from == game.version - 1 and game.changes
        assert all(game.state[name] == value for name, value in game.changes.items())
        # Every screen followed: each socket's last frame shows the second round's deal.
        for communicator in sockets:
            frames = await ws.drain(communicator)
            shown = [ws.live_version(f) for f in communicator.frames + frames]
            assert max(v for v in shown if v is not None) == stored["version"]
    finally:
        for communicator in sockets:
            await communicator.disconnect()


async def test_a_table_changed_by_an_admin_is_not_overwritten(seated_sockets):
    """A time limit set from the admin during a turn: the turn's reveal, planned on the
    kept table without one, is stored by the full path with the new deadline."""

    async def body(table, sockets):
        await select(table, sockets, 0, "m-1")
        await acknowledged(sockets[0], "m-1")
        await select(table, sockets, 1, "m-2")
        await acknowledged(sockets[1], "m-2")
        # A queryset update, as an admin's bulk action would (no seat changes).
        await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(time_limit=60)
        await select(table, sockets, 2, "m-3")  # the turn's last selection
        version = await acknowledged(sockets[2], "m-3")
        game = await database_sync_to_async(Game.objects.get)(table=table)
        assert game.version == version and game.point_version == version
        assert game.deadline is not None  # without the admin's limit, it would be None

    await seated_sockets(body)


@contextlib.asynccontextmanager
async def shared_thread_busy():
    """The thread that every socket's thread-sensitive database call goes to (asgiref's
    single thread, where Channels' `database_sync_to_async` runs) busy until the block
    ends."""
    from asgiref.sync import SyncToAsync

    release = threading.Event()
    busy = asyncio.wrap_future(SyncToAsync.single_thread_executor.submit(release.wait, 60))
    try:
        yield
    finally:
        release.set()
        await busy


async def test_a_sockets_session_is_checked_on_the_event_loop(alice, bob, monkeypatch):
    # The periodic session check (issue 6, "Hardening") reads the session on the loop's own
    # connection: with the shared thread held, a live session lets the decision through
    # and an expired one closes the socket, neither waiting for the thread.
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from games import consumers

    def expire(session_key):
        try:
            Session.objects.filter(session_key=session_key).update(
                expire_date=timezone.now() - timezone.timedelta(seconds=1)
            )
        finally:
            connection.close()  # this thread's own

    monkeypatch.setattr(consumers, "SESSION_CHECK_SECONDS", 0)  # due at every message
    table = await setup_table(alice, others=[bob])
    cookie = await ws.session_cookie(alice)
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", session=cookie)
    assert communicator.connected
    await ws.receive(communicator)
    hand = (await game_state(table)).hands[0]
    try:
        async with shared_thread_busy():
            await ws.send(communicator, type="select", card=hand[0], version=0, id="s-1")
            assert await acknowledged(communicator, "s-1") == 1
            await ws.drain(communicator)
            await asyncio.to_thread(expire, cookie)  # not the shared thread: it is held
            await ws.send(communicator, type="select", card=hand[1], version=1, id="s-2")
            output = await communicator.receive_output(timeout=3)
            assert output == {"type": "websocket.close", "code": 4401}
    finally:
        await communicator.disconnect()
    assert [d[2] for d in await decisions(table)] == ["s-1"]
