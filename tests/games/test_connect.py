"""A table socket's connect (docs/protocol.md, "Connecting"): accepted before its database
work, which is one hop of a few statements; a refused socket gets its close code and
nothing of the table, and never enters the chat's room."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat import sockets as chat_sockets
from games import consumers
from games.models import Seat
from games.sockets import Room
from tests.games import ws
from tests.games.ws import make, setup_table

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def enter(table, user, invite=""):
    """The connect's one hop, as the consumer runs it, and the statements it ran."""
    with CaptureQueriesContext(connection) as queries:
        entry = consumers._enter_table(table.pk, user, invite, Room(table.pk))
    return entry, [query["sql"] for query in queries]


@sync_to_async
def seen_at(table, user):
    return Seat.objects.get(table=table, user=user).seen_at


async def test_a_players_connect_reads_and_writes_in_one_hop_of_five_statements(alice, bob):
    table = await setup_table(alice, others=[bob])
    entry, statements = await enter(table, bob)
    access, (reader,) = entry
    # The table, her seat, the seat seen (an UPDATE), the chat's mutes and preference.
    assert access.seated and reader.user_id == bob.pk
    assert len(statements) == 5, statements
    assert sum(sql.startswith("UPDATE") for sql in statements) == 1
    assert await seen_at(table, bob) is not None


async def test_a_connected_player_gets_her_table_and_is_seen(alice, bob):
    table = await setup_table(alice, others=[bob])
    before = await seen_at(table, bob)
    (socket,) = await ws.watching(table, bob)
    assert 'id="live"' in socket.frames[0]
    assert await seen_at(table, bob) != before
    await socket.disconnect()


async def test_a_refused_socket_is_closed_after_accept_with_nothing_of_the_table(
    alice, make_player
):
    table = await setup_table(alice, bots=["random"], is_public=False)
    carol = await make(make_player, "carol")
    entry, statements = await enter(table, carol)
    assert entry is None and len(statements) <= 3, statements
    socket = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    # Accepted (the handshake is not left waiting on the database), then the close alone.
    assert socket.connected
    assert await socket.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}
    assert await socket.receive_nothing(timeout=0.3)
    # It never entered the room: the chat does not list it (nor does it read the layer).
    assert not any(
        listener.table_id == table.pk and listener.reader.user_id == carol.pk
        for listener in chat_sockets._listeners.values()
    )


async def test_the_invite_code_opens_a_private_table_in_the_same_hop(alice, make_player):
    table = await setup_table(alice, bots=["random"], is_public=False)
    carol = await make(make_player, "carol")
    entry, _statements = await enter(table, carol, table.invite_code)
    access, _answers = entry
    assert not access.seated
    socket = await ws.connect(f"/ws/tables/{table.pk}/?invite={table.invite_code}", carol)
    assert 'id="live"' in await ws.receive(socket)
    await socket.disconnect()


async def test_sockets_asking_for_a_table_at_once_share_one_read(alice, bob):
    """A club connecting at once: while a read of the table waits for the database
    thread, every socket asking for the table as it is now gets that read's snapshot;
    one asked after it began reads again (it could miss a change made meanwhile)."""
    table = await setup_table(alice, others=[bob])
    first, second, third = await asyncio.gather(
        *(consumers._snapshot(table.pk, None) for _ in range(3))
    )
    assert first is second is third and first.table.pk == table.pk
    later = await consumers._snapshot(table.pk, None)
    assert later is not first and later.version == first.version
