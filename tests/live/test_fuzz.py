"""Generated WebSocket messages against the real server (docs/protocol.md).

Hypothesis writes 10,000 messages: wrong types at every key, NUL and lone surrogates,
huge integers, floats, nested JSON, unknown types, stale versions and replays, never a
legal decision for the sender. The server must answer every one with an error frame on a
socket that stays open, change nothing, and log no unhandled exception. A flood with
frames over 64 KiB and other seats' decisions is answered the same way, and the other
player is served as ever.
"""

import asyncio
import json
import random
import re

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect as sync_connect

from tests.servers import DaphneServer, _free_port

MESSAGES = 10_000
BATCH = 100
FLOOD = 2_000
SOCKETS = 4

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import engine, services
from games.models import Game
alice = User.objects.create_user(PREFIX + "alice", password="pw-long-enough-1")
bob = User.objects.create_user(PREFIX + "bob", password="pw-long-enough-1")
table = services.table_create(user=alice, seats_count=2, options={})
services.seat_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=alice)
state = engine.get("nimmt").load(Game.objects.get(table=table).state)
cookies = {}
for user in (alice, bob):
    client = Client()
    client.force_login(user)
    cookies[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
hands = [list(hand) for hand in state.hands]
print(json.dumps({"table": table.pk, "cookies": list(cookies.values()), "hands": hands}))
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
                "user": "flood_bob",
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


async def test_a_flood_of_bad_and_oversized_frames_changes_nothing(fuzz_server):
    setup = json.loads(fuzz_server.shell("PREFIX = 'flood_'\n" + SETUP).strip().splitlines()[-1])
    table_id, hands = setup["table"], setup["hands"]
    snapshot = f"TABLE = {table_id}\n" + SNAPSHOT
    before = json.loads(fuzz_server.shell(snapshot).strip().splitlines()[-1])
    codes: dict[str, int] = {}
    closed_big = 0

    async def fuzzer(worker):
        nonlocal closed_big
        rng = random.Random(worker)
        sent = 0
        socket = await open_socket(fuzz_server, table_id, setup["cookies"][0])
        await socket.recv()  # the live frame
        while sent < FLOOD // SOCKETS:
            if rng.random() < 0.002:
                # A frame over daphne's 64 KiB cap: the socket is closed, reconnect.
                await socket.send(json.dumps({"type": "select", "pad": "z" * 70_000}))
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(socket.recv(), 10)
                closed_big += 1
                sent += 1
                socket = await open_socket(fuzz_server, table_id, setup["cookies"][0])
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
    assert sum(codes.values()) + closed_big >= FLOOD
    assert {"bad_json", "unknown_type", "bad_field", "illegal"} <= set(codes)

    after = json.loads(fuzz_server.shell(snapshot).strip().splitlines()[-1])
    assert after == before, "a rejected message changed the game"
    log = fuzz_server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and "Exception inside application" not in log

    # The other player is served as ever.
    socket = await open_socket(fuzz_server, table_id, setup["cookies"][1])
    await socket.recv()
    await socket.send(json.dumps({"type": "select", "card": hands[1][0], "id": "bob-1"}))
    frame = await asyncio.wait_for(socket.recv(), 10)
    while 'id="ack"' not in frame:
        frame = await asyncio.wait_for(socket.recv(), 10)
    assert 'data-request="bob-1"' in frame
    await socket.close()


# What a client may put in a message: anything JSON can say, and then some.
TEXTS = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=80)
NUMBERS = st.integers(min_value=-(10**40), max_value=10**40) | st.floats()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=8,
)
TYPES = st.sampled_from(["select", "row", "pick", "sync", "", "Select", "ping"]) | JSON_VALUES
IDS = st.from_regex(r"[A-Za-z0-9_.:-]{0,64}", fullmatch=True) | JSON_VALUES


def messages(alice_cards, version):
    """Message texts that are never a legal decision for Alice (a card of her hand in a
    `select`): everything else, well or badly formed, stale or replayed."""
    not_hers = (NUMBERS | TEXTS | JSON_VALUES).filter(
        lambda value: (
            not (
                isinstance(value, int | str)
                and not isinstance(value, bool)
                and str(value) in alice_cards
            )
        )
    )
    fields = st.fixed_dictionaries(
        {"type": TYPES},
        optional={
            "card": not_hers,
            "row": JSON_VALUES,
            "id": IDS,
            "version": st.integers(0, version) | JSON_VALUES,
            "HEADERS": JSON_VALUES,
        },
    )
    as_json = fields.map(json.dumps) | JSON_VALUES.map(json.dumps)
    nested = st.integers(1, 30_000).map(lambda depth: "[" * depth + "]" * depth)
    # Raw text frames: any characters a WebSocket can carry (UTF-8, so no lone surrogate).
    return as_json | nested | st.text(max_size=80)


@pytest.fixture(scope="module")
def alice_socket(fuzz_server):
    setup = json.loads(fuzz_server.shell("PREFIX = 'hyp_'\n" + SETUP).strip().splitlines()[-1])
    with sync_connect(
        f"{fuzz_server.ws_url}/ws/tables/{setup['table']}/",
        origin=fuzz_server.url,
        additional_headers={"Cookie": f"sessionid={setup['cookies'][0]}"},
        max_size=None,
    ) as socket:
        socket.recv(timeout=10)  # the live frame
        setup["answers"] = {}
        yield socket, setup


@settings(
    max_examples=MESSAGES // BATCH,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_generated_messages_are_answered_with_errors_and_change_nothing(alice_socket, data):
    socket, setup = alice_socket
    alice_cards = {str(card) for card in setup["hands"][0]}
    batch = data.draw(st.lists(messages(alice_cards, 1), min_size=BATCH, max_size=BATCH))
    for text in batch:
        try:
            socket.send(text)
            frame = socket.recv(timeout=10)
        except websockets.ConnectionClosed as closed:
            pytest.fail(f"the socket was closed ({closed.rcvd}) after {text[:200]!r}")
        answer = re.search(r'data-code="([a-z_]+)"', frame) or re.search(r'id="(live)"', frame)
        assert answer, f"no answer to {text[:200]!r}: {frame[:200]}"
        setup["answers"][answer.group(1)] = setup["answers"].get(answer.group(1), 0) + 1


def test_after_the_generated_messages_the_game_and_log_are_untouched(fuzz_server, alice_socket):
    _socket, setup = alice_socket
    assert sum(setup["answers"].values()) >= MESSAGES
    snapshot = json.loads(
        fuzz_server.shell(f"TABLE = {setup['table']}\n" + SNAPSHOT).strip().splitlines()[-1]
    )
    assert snapshot["decisions"] == 0 and snapshot["version"] == 0, snapshot
    log = fuzz_server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and "Exception inside application" not in log
