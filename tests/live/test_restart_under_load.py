"""SIGKILL in the middle of a loaded run (issue 6): nothing acknowledged is lost, nothing
is applied twice, every game still holds together, and every client comes back by itself.

The clients here behave as the browser and the load generator do: they give every
decision an id, keep it until it is acknowledged, reconnect with back-off when the socket
drops, and resend what was not acknowledged; the server applies a resent id once.
"""

import asyncio
import json
import random
import re
import time

import pytest
import websockets

from tests.servers import DaphneServer, _free_port, wait_until

TABLES = 8
PLAYERS = 3

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services
out = {"tables": [], "cookies": {}}
for t in range(TABLES):
    users = [User.objects.create_user(f"r{t}p{p}", password="pw-long-enough-1")
             for p in range(PLAYERS)]
    table = services.table_create(user=users[0], seats_count=PLAYERS,
                                  options={"end": "rounds", "rounds": 20})
    for user in users[1:]:
        services.seat_join(table_id=table.pk, user=user)
    services.table_start(table_id=table.pk, user=users[0])
    out["tables"].append([table.pk, [u.username for u in users]])
    for user in users:
        client = Client()
        client.force_login(user)
        out["cookies"][user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
print(json.dumps(out))
"""

CHECK = """
import json
from collections import Counter
from games import engine, replays
from games.models import Decision, Game
from tests.games.test_engine_properties import check_invariants
nimmt = engine.get("nimmt")
report = {}
for game in Game.objects.select_related("table"):
    rebuilt = None
    for rebuilt, _ in replays.rebuild(game):
        pass
    check_invariants(nimmt.load(game.state))
    ids = Counter(Decision.objects.filter(game=game).exclude(client_id="")
                  .values_list("seat", "client_id"))
    report[game.table_id] = {
        "log_matches_snapshot": nimmt.dump(rebuilt) == {k: v for k, v in game.state.items()},
        "version": game.version,
        "decisions": Decision.objects.filter(game=game).count(),
        "twice": [list(k) for k, n in ids.items() if n > 1],
        "ids": sorted(client_id for _, client_id in ids),
    }
print(json.dumps(report))
"""


class Player:
    def __init__(self, server, table_id, cookie, name):
        self.server, self.table_id, self.cookie, self.name = server, table_id, cookie, name
        self.pending: dict[str, dict] = {}  # id -> decision, until acknowledged
        self.acked: dict[str, int] = {}
        self.counter = 0
        self.reconnected_at: list[float] = []
        self.drops = 0
        self.rng = random.Random(name)

    async def run(self, stop: asyncio.Event):
        delay = 0.1
        while not stop.is_set():
            try:
                async with websockets.connect(
                    f"{self.server.ws_url}/ws/tables/{self.table_id}/",
                    additional_headers={
                        "Cookie": f"sessionid={self.cookie}",
                        "Origin": self.server.url,
                    },
                    open_timeout=3,
                ) as socket:
                    delay = 0.1
                    for decision_id, decision in list(self.pending.items()):
                        await socket.send(json.dumps({**decision, "id": decision_id}))
                    await self._play(socket, stop)
            except (TimeoutError, OSError, websockets.WebSocketException):
                self.drops += 1
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _play(self, socket, stop):
        first = True
        while not stop.is_set():
            try:
                frame = await asyncio.wait_for(socket.recv(), 0.5)
            except TimeoutError:
                continue
            ack = re.search(r'id="ack"[^>]*data-request="([^"]*)"[^>]*data-version="(\d+)"', frame)
            if ack:
                self.pending.pop(ack.group(1), None)
                self.acked[ack.group(1)] = int(ack.group(2))
                continue
            if 'id="live"' not in frame:
                continue
            if first:
                self.reconnected_at.append(time.monotonic())
                first = False
            if self.pending:
                continue
            cards = re.findall(r'"type": "select", "card": (\d+), "version": (\d+)', frame)
            rows = re.findall(r'"type": "row", "row": (\d+), "version": (\d+)', frame)
            choice = None
            if rows:
                choice = {"type": "row", "row": int(rows[0][0]), "version": int(rows[0][1])}
            elif cards and 'aria-pressed="true"' not in frame:
                card, version = self.rng.choice(cards)
                choice = {"type": "select", "card": int(card), "version": int(version)}
            if choice:
                await asyncio.sleep(self.rng.uniform(0.02, 0.15))
                self.counter += 1
                decision_id = f"{self.name}-{self.counter}"
                self.pending[decision_id] = choice
                await socket.send(json.dumps({**choice, "id": decision_id}))


@pytest.fixture(scope="module")
def load_server(daphne_server):
    env = dict(daphne_server.env, WS_RATE_BURST="1000", WS_RATE_PER_MINUTE="100000")
    folder = daphne_server.folder / "restart"
    folder.mkdir(exist_ok=True)
    server = DaphneServer(port=_free_port(), env=env, folder=folder)
    server.start()
    yield server
    server.stop(kill=True)


def shell_json(server, code):
    return json.loads(server.shell(code).strip().splitlines()[-1])


async def test_sigkill_mid_run_loses_nothing_and_clients_come_back(load_server):
    setup = shell_json(load_server, f"TABLES = {TABLES}\nPLAYERS = {PLAYERS}\n" + SETUP)
    players = [
        Player(load_server, table_id, setup["cookies"][name], name)
        for table_id, names in setup["tables"]
        for name in names
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(player.run(stop)) for player in players]

    def acked():
        return sum(len(p.acked) for p in players)

    # A few turns played at every table before the kill.
    await wait_until(lambda: acked() >= 3 * len(players), "nothing was played before the kill", 30)
    acked_before = acked()

    await asyncio.to_thread(load_server.restart, kill=True)
    back = time.monotonic()

    def came_back(player):
        return any(t >= back - 0.5 for t in player.reconnected_at)

    await wait_until(
        lambda: all(came_back(p) for p in players) and acked() > acked_before + len(players),
        "the clients did not come back and play on",
        20,
    )
    stop.set()
    await asyncio.gather(*tasks)

    # Every client resynchronised by itself within 10 s of the server being back.
    for player in players:
        after = [t for t in player.reconnected_at if t >= back - 0.5]
        assert after and after[0] - back <= 10, f"{player.name} did not come back"
    assert sum(len(p.acked) for p in players) > acked_before, "no progress after the restart"

    report = shell_json(load_server, CHECK)
    for table_id, _names in setup["tables"]:
        game = report[str(table_id)]
        assert game["log_matches_snapshot"], f"table {table_id}: log and snapshot differ"
        assert game["twice"] == [], f"table {table_id}: ids applied twice {game['twice']}"
        assert game["version"] == game["decisions"]
        for player in players:
            if player.table_id != table_id:
                continue
            # Every acknowledged decision is in the log.
            missing = set(player.acked) - set(game["ids"])
            assert not missing, f"acknowledged but lost: {sorted(missing)[:5]}"


async def test_sigterm_closes_sockets_with_1012_so_clients_reconnect(load_server):
    setup = shell_json(
        load_server, "TABLES = 1\nPLAYERS = 2\n" + SETUP.replace("r{t}p{p}", "s{t}p{p}")
    )
    table_id, names = setup["tables"][0]
    socket = await websockets.connect(
        f"{load_server.ws_url}/ws/tables/{table_id}/",
        additional_headers={
            "Cookie": f"sessionid={setup['cookies'][names[0]]}",
            "Origin": load_server.url,
        },
    )
    await socket.recv()
    try:
        await asyncio.to_thread(load_server.stop, kill=False)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    finally:
        await socket.close()
        await asyncio.to_thread(load_server.start)
