"""10,000 generated WebSocket messages against the real server (docs/protocol.md).

Wrong types and shapes, huge and deeply nested JSON, other seats' decisions, stale
versions, replays of old messages and floods. The server must answer every one with an
error (or close a socket whose frame is over 64 KiB), change nothing, log no unhandled
exception, and go on serving the other player.
"""

import asyncio
import json
import random
import re

import pytest
import websockets

from tests.live.conftest import DaphneServer, _free_port

MESSAGES = 10_000
SOCKETS = 4

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import engine, services
from games.models import Game
alice = User.objects.create_user("fuzz_alice", password="pw-long-enough-1")
bob = User.objects.create_user("fuzz_bob", password="pw-long-enough-1")
table = services.table_create(user=alice, seats_count=2, options={})
services.seat_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=alice)
state = engine.get("nimmt").load(Game.objects.get(table=table).state)
cookies = {}
for user in (alice, bob):
    client = Client()
    client.force_login(user)
    cookies[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
print(json.dumps({"table": table.pk, "cookies": cookies, "hands": [list(h) for h in state.hands]}))
"""

SNAPSHOT = """
import json
from games.models import Decision, Game
game = Game.objects.get(table_id=TABLE)
print(json.dumps({"version": game.version, "state": game.state,
                  "decisions": Decision.objects.filter(game=game).count()}))
"""


def nested(depth):
    return "[" * depth + "]" * depth


def generate(rng, hands, table_id):
    """One fuzz message (text), never a legal decision for Alice."""
    bobs = hands[1]
    outside = [card for card in range(-5, 120) if card not in hands[0]]
    kind = rng.randrange(14)
    if kind == 0:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(0, 40)))
    if kind == 1:
        return json.dumps(rng.choice([None, 1, 2.5, "select", [], [1, 2], True]))
    if kind == 2:
        return json.dumps({"type": rng.choice(["", "Select", "SELECT", "play", "ping", None, 7])})
    if kind == 3:
        return json.dumps({"type": "select", "card": rng.choice(bobs)})  # another seat's card
    if kind == 4:
        return json.dumps({"type": "select", "card": rng.choice(outside)})
    if kind == 5:
        bad = rng.choice(["", "12a", "1e3", 3.5, None, [], {}, True, "9" * 30, -1])
        return json.dumps({"type": "select", "card": bad})
    if kind == 6:
        return json.dumps({"type": "row", "row": rng.randrange(-3, 8)})  # nobody is choosing
    if kind == 7:
        return json.dumps({"type": "pick", "card": rng.randrange(1, 105)})  # no draft
    if kind == 8:
        return json.dumps({"type": "select", "card": rng.choice(bobs), "version": 0, "id": "old"})
    if kind == 9:
        return nested(rng.choice([100, 1000, 5000, 20000]))
    if kind == 10:
        return json.dumps({"type": "select", "card": rng.choice(outside), "id": "x" * 80})
    if kind == 11:
        return json.dumps(
            {
                "type": "select",
                "card": rng.choice(bobs),
                "table": table_id + 1,
                "seat": 1,
                "user": "fuzz_bob",
            }
        )
    if kind == 12:
        return json.dumps(
            {"type": "select", "card": rng.choice(outside), "pad": "y" * rng.randrange(10, 3000)}
        )
    return json.dumps({"type": "row", "row": "0", "version": "x"})


@pytest.fixture(scope="module")
def fuzz_server(daphne_server):
    """A server of its own whose rate limit lets a flood through to the parser."""
    env = dict(daphne_server.env, WS_RATE_BURST="100000", WS_RATE_PER_MINUTE="10000000")
    folder = daphne_server.folder / "fuzz"
    folder.mkdir(exist_ok=True)
    server = DaphneServer(port=_free_port(), env=env, folder=folder)
    server.start()
    yield server
    server.stop(kill=True)


async def open_socket(server, table_id, cookie):
    return await websockets.connect(
        f"{server.ws_url}/ws/tables/{table_id}/",
        additional_headers={"Cookie": f"sessionid={cookie}", "Origin": server.url},
        max_size=None,
    )


async def test_ten_thousand_generated_messages_change_nothing(fuzz_server):
    setup = json.loads(fuzz_server.shell(SETUP).strip().splitlines()[-1])
    table_id, hands = setup["table"], setup["hands"]
    snapshot = f"TABLE = {table_id}\n" + SNAPSHOT
    before = json.loads(fuzz_server.shell(snapshot).strip().splitlines()[-1])
    codes: dict[str, int] = {}
    closed_big = 0

    async def fuzzer(worker):
        nonlocal closed_big
        rng = random.Random(worker)
        sent = 0
        socket = await open_socket(fuzz_server, table_id, setup["cookies"]["fuzz_alice"])
        await socket.recv()  # the live frame
        while sent < MESSAGES // SOCKETS:
            if rng.random() < 0.002:
                # A frame over daphne's 64 KiB cap: the socket is closed, reconnect.
                await socket.send(json.dumps({"type": "select", "pad": "z" * 70_000}))
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(socket.recv(), 10)
                closed_big += 1
                sent += 1
                socket = await open_socket(fuzz_server, table_id, setup["cookies"]["fuzz_alice"])
                await socket.recv()
                continue
            # Floods: up to 20 messages before reading the answers.
            burst = [generate(rng, hands, table_id) for _ in range(rng.choice([1, 1, 1, 5, 20]))]
            for text in burst:
                await socket.send(text)
            for _ in burst:
                frame = await asyncio.wait_for(socket.recv(), 10)
                code = re.search(r'data-code="([a-z_]+)"', frame)
                assert code, f"no error for a fuzz message: {frame[:200]}"
                codes[code.group(1)] = codes.get(code.group(1), 0) + 1
            sent += len(burst)
        await socket.close()

    await asyncio.gather(*(fuzzer(worker) for worker in range(SOCKETS)))
    assert sum(codes.values()) + closed_big >= MESSAGES
    assert {"bad_json", "unknown_type", "bad_field", "illegal"} <= set(codes)

    after = json.loads(fuzz_server.shell(snapshot).strip().splitlines()[-1])
    assert after == before, "a rejected message changed the game"
    log = fuzz_server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and "Exception inside application" not in log

    # The other player is served as ever.
    socket = await open_socket(fuzz_server, table_id, setup["cookies"]["fuzz_bob"])
    await socket.recv()
    await socket.send(json.dumps({"type": "select", "card": hands[1][0], "id": "bob-1"}))
    frame = await asyncio.wait_for(socket.recv(), 10)
    while 'id="ack"' not in frame:
        frame = await asyncio.wait_for(socket.recv(), 10)
    assert 'data-request="bob-1"' in frame
    await socket.close()
