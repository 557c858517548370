"""Another app's part of the table and lobby sockets (games.sockets), with a made-up app:
the sockets hand it the messages of its type, its refusals, its events and their rooms'
comings and goings, without knowing anything of it (the chat is the real one, tests/chat)."""

from dataclasses import dataclass

import pytest
from channels.layers import get_channel_layer

from games import sockets
from games.protocol import ProtocolError, request_id
from games.services import table_group
from tests.games import ws
from tests.games.ws import setup_table

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(frozen=True)
class Wave:
    id: str
    to: str
    type: str = "wave"


class WavingApp:
    def __init__(self):
        self.calls = []

    def parse(self, data) -> Wave:
        if not isinstance(data.get("to"), str):
            raise ProtocolError("bad_field", "Wave to whom?")
        return Wave(id=request_id(data), to=data["to"])

    async def receive(self, socket, message):
        self.calls.append(("receive", str(socket.room), message.to))
        await socket.send(text_data=f'<p id="wave">{message.to}</p>')

    async def refuse(self, socket, code, text, message_id):
        await socket.send(text_data=f'<p id="wave-notice" data-code="{code}"></p>')

    async def waved(self, socket, event):
        await socket.send(text_data=f'<p id="waved">{event["to"]}</p>')

    async def join(self, socket, room):
        self.calls.append(("join", str(room)))

    async def leave(self, socket, room):
        self.calls.append(("leave", str(room)))


@pytest.fixture
def waving(monkeypatch):
    """The waving app registered as an app's ready() would, for this test only."""
    app = WavingApp()
    monkeypatch.setattr(sockets, "_messages", dict(sockets._messages))
    monkeypatch.setattr(sockets, "_events", dict(sockets._events))
    monkeypatch.setattr(sockets, "_rooms", list(sockets._rooms))
    sockets.register_message("wave", parse=app.parse, receive=app.receive, refuse=app.refuse)
    sockets.register_event("wave.sent", app.waved)
    sockets.register_room(join=app.join, leave=app.leave)
    return app


async def test_a_table_socket_hands_another_apps_messages_and_events_to_it(alice, bob, waving):
    table = await setup_table(alice, others=[bob])
    (socket,) = await ws.watching(table, alice)
    await ws.send(socket, type="wave", to="bob")
    assert await ws.drain(socket) == ['<p id="wave">bob</p>']
    await ws.send(socket, type="wave", to=3)
    assert await ws.drain(socket) == ['<p id="wave-notice" data-code="bad_field"></p>']
    await get_channel_layer().group_send(table_group(table.pk), {"type": "wave.sent", "to": "all"})
    assert await ws.drain(socket) == ['<p id="waved">all</p>']
    await socket.disconnect()
    room = f"table {table.pk}"
    assert waving.calls == [("join", room), ("receive", room, "bob"), ("leave", room)]


async def test_the_lobby_takes_other_apps_messages_and_only_them(alice, waving):
    lobby = await ws.connect("/ws/lobby/", alice)
    await ws.send(lobby, type="wave", to="everyone")
    assert await ws.drain(lobby) == ['<p id="wave">everyone</p>']
    await ws.send(lobby, type="sync")
    assert 'data-code="read_only"' in "".join(await ws.drain(lobby))
    await lobby.disconnect()
    assert waving.calls == [("join", "lobby"), ("receive", "lobby", "everyone"), ("leave", "lobby")]
