"""Selections within a turn stored from the event loop (games.loopdb,
services.select_within_turn_async), through the real ASGI application on PostgreSQL.

What must hold: such a selection needs no decision thread; a resend is applied once; a
connection that PostgreSQL dropped costs nothing but a detour through the threads; a
game moved behind the process's back is not overwritten.
"""

import asyncio
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import engine, loopdb
from games.models import Decision, Game
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


async def test_a_selection_is_stored_without_a_decision_thread(seated_sockets):
    async def body(table, sockets):
        loop = asyncio.get_running_loop()
        # Every decision thread of this loop busy until released.
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        release = threading.Event()
        busy = loop.run_in_executor(None, release.wait, 30)
        try:
            await select(table, sockets, 0, "m-1")
            version = await acknowledged(sockets[0], "m-1")
        finally:
            release.set()
            await busy
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
