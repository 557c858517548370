"""Who may open a socket on the real server, how many messages a user may send across
processes, and a clock that runs from the server's start (issue 19, items 4, 5, 6, 14).
"""

import asyncio
import json
import time

import pytest
import websockets
from websockets.asyncio.client import connect as ws_connect

from tests.servers import DaphneServer, _free_port

SETUP = """
import json
from datetime import timedelta
from django.conf import settings
from django.test import Client
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Game
alice = User.objects.create_user(NAME + "_a", password="pw-long-enough-1")
bob = User.objects.create_user(NAME + "_b", password="pw-long-enough-1")
table = services.table_create(user=alice, seats_count=2, options={}, time_limit=60)
services.seat_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=alice)
private = services.table_create(user=bob, seats_count=2, options={}, is_public=False)
client = Client()
client.force_login(alice)
print(json.dumps({"table": table.pk, "private": private.pk,
                  "cookie": client.cookies[settings.SESSION_COOKIE_NAME].value}))
"""

TIMEOUTS = """
import json
from games.models import Decision
print(json.dumps(Decision.objects.filter(game__table_id=TABLE, source="timeout").count()))
"""


def shell_json(server, code):
    return json.loads(server.shell(code).strip().splitlines()[-1])


def set_up(server, name):
    return shell_json(server, f"NAME = {name!r}\n" + SETUP)


async def open_socket(server, path, cookie="", origin=None):
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    return await ws_connect(
        f"{server.ws_url}{path}", origin=origin or server.url, additional_headers=headers
    )


async def close_code(server, path, cookie=""):
    socket = await open_socket(server, path, cookie)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(socket.recv(), 10)
    return closed.value.rcvd.code


async def test_refused_sockets_are_closed_with_the_codes_the_protocol_names(daphne_server):
    setup = set_up(daphne_server, "codes")
    table = f"/ws/tables/{setup['table']}/"
    assert await close_code(daphne_server, table) == 4401
    assert await close_code(daphne_server, "/ws/lobby/") == 4401
    assert await close_code(daphne_server, "/ws/tables/99999999/", setup["cookie"]) == 4404
    assert (
        await close_code(daphne_server, f"/ws/tables/{setup['private']}/", setup["cookie"]) == 4404
    )


@pytest.mark.parametrize(
    "origin",
    ["http://127.0.0.1:1", "https://{host}", "http://localhost:{port}", "http://evil.example"],
)
async def test_another_origin_is_refused_at_the_handshake(daphne_server, origin):
    setup = set_up(daphne_server, f"origin{abs(hash(origin)) % 10_000}")
    origin = origin.format(host=f"127.0.0.1:{daphne_server.port}", port=daphne_server.port)
    with pytest.raises(websockets.InvalidStatus) as refused:
        await open_socket(daphne_server, "/ws/lobby/", setup["cookie"], origin=origin)
    assert refused.value.response.status_code == 403


async def test_the_sites_own_origin_gets_its_socket(daphne_server):
    setup = set_up(daphne_server, "own")
    socket = await open_socket(daphne_server, f"/ws/tables/{setup['table']}/", setup["cookie"])
    assert 'id="live"' in await asyncio.wait_for(socket.recv(), 10)
    await socket.close()


@pytest.fixture(scope="module")
def limited_servers(daphne_server):
    """Two processes on one database and one Redis, 5 messages a minute per user."""
    env = dict(daphne_server.env, WS_RATE_BURST="5", WS_RATE_PER_MINUTE="5")
    servers = []
    for name in ("limited_a", "limited_b"):
        folder = daphne_server.folder / name
        folder.mkdir(exist_ok=True)
        servers.append(DaphneServer(port=_free_port(), env=env, folder=folder))
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop(kill=True)


async def test_the_message_rate_limit_counts_across_processes(daphne_server, limited_servers):
    if not daphne_server.env.get("REDIS_URL"):
        pytest.skip("the shared count lives in Redis: set REDIS_URL")
    first, second = limited_servers
    setup = set_up(first, "rate")
    path = f"/ws/tables/{setup['table']}/"
    sockets = [await open_socket(server, path, setup["cookie"]) for server in (first, second)]
    for socket in sockets:
        await asyncio.wait_for(socket.recv(), 10)  # the live frame

    async def answer(socket) -> str:
        await socket.send(json.dumps({"type": "sync"}))
        return await asyncio.wait_for(socket.recv(), 10)

    # Five messages spread over both processes use the user's whole allowance.
    for index in range(5):
        assert 'data-code="rate_limited"' not in await answer(sockets[index % 2])
    # The sixth is refused, whichever process it reaches (without a shared count, each
    # process would have let five through).
    assert 'data-code="rate_limited"' in await answer(sockets[1])
    assert 'data-code="rate_limited"' in await answer(sockets[0])
    for socket in sockets:
        await socket.close()


async def test_the_clock_runs_from_the_servers_start_without_any_request(daphne_server):
    setup = set_up(daphne_server, "clock")
    table = setup["table"]
    deadline_in = 2.0
    daphne_server.stop(kill=True)
    daphne_server.shell(
        "from datetime import timedelta\nfrom django.utils import timezone\n"
        "from games.models import Game\n"
        f"Game.objects.filter(table_id={table}).update("
        f"deadline=timezone.now() + timedelta(seconds={deadline_in}))"
    )
    # Serve again; no HTTP request and no socket reaches the new process.
    daphne_server.start(request=False)
    started = time.monotonic()
    timeouts = 0
    while time.monotonic() - started < deadline_in + 8:
        timeouts = shell_json(daphne_server, f"TABLE = {table}\n" + TIMEOUTS)
        if timeouts:
            break
        time.sleep(0.5)
    # Both seats' selections were made by the clock (RULES §1.8).
    assert timeouts == 2, daphne_server.log_tail()
