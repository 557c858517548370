"""The real daphne server dies (SIGKILL) mid-turn and comes back: the game goes on.

Alice watches in a browser page that stays open across the restart; Bob and Carol play
over raw WebSockets. Bob's selection is acknowledged just before the kill; Carol selects
only after the restart. Nothing may be lost and nobody may need to reload.
"""

import asyncio
import json
import re
import time

import pytest
from websockets.asyncio.client import connect as ws_connect

pytestmark = pytest.mark.e2e

PASSWORD = "Unguessable-Card-Club-77"
RECONNECT_SECONDS = 15
FRAME_SECONDS = 5
# Longer than any read timeout between the server and its channel layer (5 s by default).
IDLE_SECONDS = 6.5
# How many players Alice's page shows as having chosen this turn (RULES 1.3: who, not what).
CHECKS_SHOWN = "(document.querySelector('#players')?.textContent.match(/✓/g) || []).length"

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services

users = [
    User.objects.create_user(
        username=name,
        password=%(password)r,
        email=name + "@example.org",
        display_name=name.title(),
        preferred_language="en",
    )
    for name in %(names)r
]
table = services.table_create(
    user=users[0], seats_count=len(users), options={"end": "rounds", "rounds": 1}
)
for user in users[1:]:
    services.seat_join(table_id=table.pk, user=user)
services.table_start(table_id=table.pk, user=users[0])
sessions = {}
for user in users:
    client = Client()
    client.force_login(user)
    sessions[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
print(json.dumps({
    "table": table.pk,
    "sessions": sessions,
    "session_cookie": settings.SESSION_COOKIE_NAME,
    "language_cookie": settings.LANGUAGE_COOKIE_NAME,
}))
"""

# What the server stored, read through the engine from the game's snapshot and log.
STORED = """
import json
from games import engine
from games.models import Decision, Game

game = Game.objects.get(table_id=%(table)d)
state = engine.get("nimmt").load(game.state)
print(json.dumps({
    "version": game.version,
    "phase": state.phase,
    "hands": [list(hand) for hand in state.hands],
    "selections": list(state.selections),
    "decisions": [
        [d.seq, d.seat, d.payload, d.source]
        for d in Decision.objects.filter(game=game).order_by("seq")
    ],
}))
"""


def set_up_table(server, names):
    """Players with open sessions at a started table (names[0] created it)."""
    code = SETUP % {"password": PASSWORD, "names": tuple(names)}
    return json.loads(server.shell(code).strip().splitlines()[-1])


def stored(server, table):
    return json.loads(server.shell(STORED % {"table": table}).strip().splitlines()[-1])


def section(frame: str, element_id: str) -> str:
    match = re.search(
        rf'<section[^>]*\bid="{element_id}"[^>]*>.*?</section>', frame, flags=re.DOTALL
    )
    return match.group(0) if match else ""


def live_version(frame: str) -> int | None:
    match = re.search(r'id="live" data-version="(\d*)"', frame)
    return int(match.group(1) or 0) if match else None


def shown_version(frame: str) -> int | None:
    """The version a frame brings the screen to: a whole `#live`, or within a decision
    point the players' section (docs/protocol.md)."""
    match = re.search(r'id="(?:live|players)" data-version="(\d*)"', frame)
    return int(match.group(1) or 0) if match else None


def ack_version(frame: str, request_id: str) -> int | None:
    match = re.search(rf'id="ack"[^>]*data-request="{request_id}"[^>]*data-version="(\d+)"', frame)
    return int(match.group(1)) if match else None


def hand_cards(frame: str) -> list[int]:
    faces = re.findall(r'class="card[^"]*" title="(\d+)"', section(frame, "hand"))
    return [int(card) for card in faces]


def pressed_cards(frame: str) -> list[int]:
    hand = section(frame, "hand")
    return [
        int(card)
        for card in re.findall(r'"card": (\d+)[^>]*aria-pressed="true"', hand, flags=re.DOTALL)
    ]


async def until(condition, message, seconds=FRAME_SECONDS):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        await asyncio.sleep(0.05)


class Player:
    """One seat's raw WebSocket, with every frame it received."""

    def __init__(self, server, setup, username):
        self.server = server
        self.table = setup["table"]
        self.cookie = (
            f"{setup['session_cookie']}={setup['sessions'][username]}; "
            f"{setup['language_cookie']}=en"
        )
        self.socket = None
        self.frames = []

    async def connect(self) -> str:
        self.socket = await ws_connect(
            f"{self.server.ws_url}/ws/tables/{self.table}/",
            origin=self.server.url,
            additional_headers={"Cookie": self.cookie},
            open_timeout=FRAME_SECONDS,
        )
        return await self.receive_until(lambda frame: live_version(frame) is not None)

    async def receive_until(self, wanted) -> str:
        async with asyncio.timeout(FRAME_SECONDS):
            while True:
                frame = await self.socket.recv()
                self.frames.append(frame)
                if wanted(frame):
                    return frame

    async def select(self, card: int, version: int, request_id: str) -> int:
        """Select a card; returns the version the server acknowledged (committed)."""
        message = {"type": "select", "card": card, "version": version, "id": request_id}
        await self.socket.send(json.dumps(message))
        frame = await self.receive_until(
            lambda frame: ack_version(frame, request_id) or "notice" in frame
        )
        acknowledged = ack_version(frame, request_id)
        assert acknowledged is not None, frame
        return acknowledged

    async def close(self):
        if self.socket is not None:
            await self.socket.close()


async def test_a_killed_server_comes_back_and_the_turn_goes_on(daphne_server, chromium):
    server = daphne_server
    setup = set_up_table(server, ["alice", "bob", "carol"])
    table = setup["table"]
    at_start = stored(server, table)
    assert at_start["phase"] == "select" and not any(at_start["selections"])

    # Alice's page: one page load, never reloaded; we count the sockets it opens.
    context = await chromium.new_context(locale="en-US")
    await context.add_cookies(
        [{"name": setup["session_cookie"], "value": setup["sessions"]["alice"], "url": server.url}]
    )
    page = await context.new_page()
    # Frames received by each WebSocket the page opens, in order of opening.
    received = []

    def watch(socket):
        index = len(received)
        received.append(0)
        socket.on("framereceived", lambda _: received.__setitem__(index, received[index] + 1))

    page.on("websocket", watch)
    bob = Player(server, setup, "bob")
    carol = Player(server, setup, "carol")
    try:
        await page.goto(f"{server.url}/tables/{table}/")
        await until(lambda: received and received[0], "the page's socket got no frame")
        await page.evaluate("() => { window.sixclubSamePage = true; }")
        alice_rows = await page.inner_html("#rows")
        alice_hand = [
            int(text) for text in await page.locator("#hand button.cardbtn b").all_inner_texts()
        ]
        assert alice_hand == at_start["hands"][0]

        # Bob selects; the acknowledgement says his decision is committed at version N.
        frame = bob_first = await bob.connect()
        assert hand_cards(frame) == at_start["hands"][1]
        card = at_start["hands"][1][0]
        version = await bob.select(card, live_version(frame), "bob-1")
        bob_before = await bob.receive_until(lambda frame: shown_version(frame) == version)
        assert pressed_cards(bob_before) == [card]

        # SIGKILL right after the acknowledgement: nothing gets flushed on the way out.
        killed = time.monotonic()
        sockets_before = len(received)
        server.restart(kill=True)
        await bob.close()

        after = stored(server, table)
        assert after["version"] == version
        assert [version, 1, {"type": "select", "card": card}, "player"] in after["decisions"]
        assert after["selections"] == [0, card, 0]
        assert after["hands"] == at_start["hands"]

        # Bob comes back to exactly the screen he had: his card still chosen, same rows.
        frame = await bob.connect()
        assert live_version(frame) == version
        assert section(frame, "hand") == section(bob_before, "hand")
        assert section(frame, "rows") == section(bob_first, "rows")

        # Alice's old page reconnects by itself (htmx ws: back-off after an abnormal close,
        # 1006) and gets a fresh frame on the new socket.
        await until(
            lambda: any(received[sockets_before:]),
            "the page did not reconnect",
            seconds=RECONNECT_SECONDS - (time.monotonic() - killed),
        )
        print(f"Alice's page reconnected {time.monotonic() - killed:.1f} s after the kill")
        await page.wait_for_function(f"() => {CHECKS_SHOWN} === 1", timeout=FRAME_SECONDS * 1000)
        assert await page.get_attribute("#live", "data-version") == str(version)
        assert await page.inner_html("#rows") == alice_rows
        assert await page.locator("#hand button.cardbtn b").all_inner_texts() == [
            str(card) for card in alice_hand
        ]
        # Carol plays after the restart; Alice's page hears of it by itself.
        frame = await carol.connect()
        assert live_version(frame) == version
        started = time.monotonic()
        await carol.select(at_start["hands"][2][-1], version, "carol-1")
        await page.wait_for_function(f"() => {CHECKS_SHOWN} === 2", timeout=FRAME_SECONDS * 1000)
        print(f"Alice's page caught up {time.monotonic() - started:.1f} s after Carol's choice")
        assert await page.evaluate("() => window.sixclubSamePage === true"), "the page reloaded"
        assert await page.get_attribute("#players", "data-version") == str(version + 1)

        # Alice finishes the turn from the same page: the revealed turn reaches everyone.
        # A tap arms the card, a second tap plays it.
        await page.locator("#hand button.cardbtn").last.click()
        await page.locator("#hand button.cardbtn").last.click()
        await page.wait_for_function(
            "() => document.querySelectorAll('#hand .card').length === 9",
            timeout=FRAME_SECONDS * 1000,
        )
        for player in (bob, carol):
            await player.close()
            frame = await player.connect()
            assert len(hand_cards(frame)) == 9
            assert "✓" not in section(frame, "players")
        final = stored(server, table)
        by_players = [seat for _, seat, _, source in final["decisions"] if source == "player"]
        assert by_players == [1, 2, 0]
        assert all(len(hand) == 9 for hand in final["hands"])
    finally:
        await bob.close()
        await carol.close()
        await context.close()


async def test_an_idle_players_socket_stays_open(daphne_server):
    # A player thinking about their card sends nothing and receives nothing for a while.
    setup = set_up_table(daphne_server, ["dora", "emil"])
    dora = Player(daphne_server, setup, "dora")
    try:
        await dora.connect()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(IDLE_SECONDS):
                await dora.socket.recv()
        await dora.socket.send(json.dumps({"type": "sync"}))
        assert live_version(await dora.receive_until(lambda frame: 'id="live"' in frame)) == 0
    finally:
        await dora.close()
