"""Nothing that goes through Redis holds a secret (DESIGN: secrets never travel through
Redis; RULES §1.3: a hand and an unrevealed selection are their seat's alone).

A whole game is played over real WebSockets on two daphne processes with REDIS_URL, its
seats split between them (so that every decision must cross Redis to reach a screen), while
redis-py's MONITOR records every command any client sends to that Redis. Every command
of this run's server (its key prefix) is read back: a channel-layer message must be one
of the announcements of docs/protocol.md, "table N is at version v" and the like, with no
other entry, and no argument may name a hand, a selection or a card.
"""

import asyncio
import json
import re
import threading
import time

import msgpack
import pytest
import redis

from tests.live.test_restart_under_load import Player, shell_json
from tests.servers import DaphneServer, _free_port

# The announcements the channel layer may carry, and their entries (channels-redis adds
# the `__asgi_…__` ones to route a group's message).
ANNOUNCEMENTS = {
    "table.changed": {"type", "table", "version"},
    "lobby.changed": {"type"},
    "session.ended": {"type", "session_key"},
}
ROUTING = {"__asgi_group__", "__asgi_channel__"}
# channels-redis puts 12 random bytes before each msgpack message.
RANDOM_PREFIX = 12
# Words of a game's state and of its moves that no Redis command may hold.
SECRET_WORDS = (b"hand", b"selection", b"card", b"changes", b"move", b"state")

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services
users = [User.objects.create_user(f"secret{p}", password="pw-long-enough-1") for p in range(3)]
table = services.table_create(user=users[0], seats_count=3,
                              options={"end": "rounds", "rounds": 1})
for user in users[1:]:
    services.seat_join(table_id=table.pk, user=user)
services.table_start(table_id=table.pk, user=users[0])
cookies = {}
for user in users:
    client = Client()
    client.force_login(user)
    cookies[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
print(json.dumps({"table": table.pk, "names": [u.username for u in users], "cookies": cookies}))
"""

FINISHED = """
import json
from games.models import Game
game = Game.objects.get(table_id=%(table)d)
print(json.dumps({"finished": game.finished_at is not None, "version": game.version}))
"""


class Monitor:
    """Every command sent to the Redis server while it runs (redis-py's MONITOR)."""

    def __init__(self, url: str):
        self.client = redis.Redis.from_url(url)
        self.commands: list[str] = []
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._listen, daemon=True)

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(5), "MONITOR did not start"
        return self

    def _listen(self):
        with self.client.monitor() as monitor:
            self.ready.set()
            while not self.stopping.is_set():
                # The line as Redis sends it: `listen()` would join the arguments with
                # spaces, which a binary payload may hold too.
                line = monitor.connection.read_response()
                if isinstance(line, bytes):
                    self.commands.append(line.decode("latin-1"))

    def __exit__(self, *exc):
        self.stopping.set()
        self.client.ping()  # one more command wakes the listener up to see it must stop
        self.thread.join(5)


def arguments(command: str) -> list[bytes]:
    """The arguments of a command as MONITOR shows it (each quoted, with C-style escapes),
    without the command's name and without Lua scripts (channels-redis' own code)."""
    found = [_unescape(quoted) for quoted in re.findall(r'"((?:[^"\\]|\\.)*)"', command)]
    return [argument for argument in found[1:] if b"redis.call" not in argument]


def _unescape(text: str) -> bytes:
    simple = {"n": b"\n", "r": b"\r", "t": b"\t", "a": b"\a", "b": b"\b", '"': b'"', "\\": b"\\"}
    out = bytearray()
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and text[index + 1] == "x":
            out.append(int(text[index + 2 : index + 4], 16))
            index += 4
        elif char == "\\":
            out += simple[text[index + 1]]
            index += 2
        else:
            out += char.encode("latin-1")
            index += 1
    return bytes(out)


def layer_message(argument: bytes) -> dict | None:
    """The channel-layer message an argument carries, if it is one."""
    try:
        message = msgpack.unpackb(argument[RANDOM_PREFIX:], raw=False)
    except Exception:
        return None
    return message if isinstance(message, dict) and "type" in message else None


@pytest.fixture(scope="module")
def second_server(daphne_server):
    folder = daphne_server.folder / "secrets"
    folder.mkdir(exist_ok=True)
    server = DaphneServer(port=_free_port(), env=daphne_server.env, folder=folder)
    server.start()
    yield server
    server.stop(kill=True)


async def test_nothing_sent_through_redis_holds_a_hand_or_a_hidden_choice(
    daphne_server, second_server
):
    url = daphne_server.env.get("REDIS_URL")
    if not url:
        pytest.skip("the site's Redis is watched: set REDIS_URL")
    prefix = daphne_server.env["REDIS_PREFIX"].encode()
    setup = shell_json(daphne_server, SETUP)
    table = setup["table"]

    with Monitor(url) as monitor:
        stop = asyncio.Event()
        servers = [daphne_server, second_server]
        players = [
            Player(servers[index % 2], table, setup["cookies"][name], name)
            for index, name in enumerate(setup["names"])
        ]
        tasks = [asyncio.create_task(player.run(stop)) for player in players]
        try:
            deadline = time.monotonic() + 90
            while not (game := await asyncio.to_thread(stored, daphne_server, table))["finished"]:
                assert time.monotonic() < deadline, f"the game did not finish: {game}"
                await asyncio.sleep(0.2)
        finally:
            stop.set()
            await asyncio.gather(*tasks)

    ours = [command for command in monitor.commands if prefix in command.encode("latin-1")]
    announced = []
    for command in ours:
        for argument in arguments(command):
            lowered = argument.lower()
            leaked = [word for word in SECRET_WORDS if word in lowered]
            assert not leaked, f"{leaked} sent to Redis: {command[:300]}"
            message = layer_message(argument)
            if message is None:
                continue
            kind = message["type"]
            assert kind in ANNOUNCEMENTS, f"an unknown message through Redis: {message}"
            assert set(message) - ROUTING == ANNOUNCEMENTS[kind], message
            if kind == "table.changed":
                announced.append(message["version"])
    # The watch saw the game: its versions were announced, up to the last one.
    assert announced and max(v for v in announced if v is not None) == game["version"]


def stored(server, table: int) -> dict:
    return json.loads(server.shell(FINISHED % {"table": table}).strip().splitlines()[-1])
