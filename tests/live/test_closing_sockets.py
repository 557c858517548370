"""Closing many table sockets at once leaves no application running (issue 21, bug 10).

On PostgreSQL and Redis, daphne once logged "took too long to shut down and was killed"
for a closed table socket: Channels waited for the socket's channel-layer receive to end,
and a cancellation lost inside channels-redis/redis-py left that receive looping on
BZPOPMIN for good (games.consumers.HtmlConsumer). Daphne kills an application still
running 10 s after its socket closed (`--application-close-timeout`), and says so.
"""

import asyncio
import json

import pytest
from websockets.asyncio.client import connect as ws_connect

SOCKETS = 40
ROUNDS = 15
# Daphne's application close timeout (10 s) and its once-a-second check, and a margin.
KILL_AFTER = 12

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services
users = [User.objects.create_user(f"closing{n}", password="pw-long-enough-1")
         for n in range(SOCKETS)]
table = services.table_create(user=users[0], seats_count=3,
                              options={"end": "rounds", "rounds": 5})
for user in users[1:3]:
    services.seat_join(table_id=table.pk, user=user)
services.table_start(table_id=table.pk, user=users[0])
cookies = []
for user in users:
    client = Client()
    client.force_login(user)
    cookies.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
print(json.dumps({"table": table.pk, "cookies": cookies}))
"""


async def open_table(server, table, cookie):
    socket = await ws_connect(
        f"{server.ws_url}/ws/tables/{table}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={cookie}"},
    )
    await asyncio.wait_for(socket.recv(), 10)  # the whole `live` frame
    return socket


async def test_sockets_closed_together_all_shut_down_in_time(daphne_server):
    if not daphne_server.env.get("REDIS_URL"):
        pytest.skip("the channel layer's receive is Redis': set REDIS_URL")
    code = f"SOCKETS = {SOCKETS}\n" + SETUP
    setup = json.loads(daphne_server.shell(code).strip().splitlines()[-1])
    log_start = daphne_server.log_path.stat().st_size

    for _round in range(ROUNDS):
        sockets = await asyncio.gather(
            *(open_table(daphne_server, setup["table"], cookie) for cookie in setup["cookies"])
        )
        # Frames on their way while the sockets close: the players ask for the table again.
        for socket in sockets[:3]:
            await socket.send(json.dumps({"type": "sync"}))
        await asyncio.gather(*(socket.close() for socket in sockets))

    # Nothing to wait for but the absence of daphne's warning: its deadline has to pass.
    await asyncio.sleep(KILL_AFTER)
    with daphne_server.log_path.open(errors="replace") as log:
        log.seek(log_start)
        written = log.read()
    assert "took too long to shut down" not in written, written[-3000:]
    # The server still serves: a socket opens and gets its table.
    socket = await open_table(daphne_server, setup["table"], setup["cookies"][0])
    await socket.close()
