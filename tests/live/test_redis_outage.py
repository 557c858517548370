"""A table socket opened while Redis is down (issue 29): closed with 1013, one log line.

The real daphne of tests/servers.py, on a redis-server of this module's own that the
test stops and starts again: while it is down, a socket's handshake cannot join its
table's group (or the lobby's) on the channel layer. The page is told "try again later"
(1013) and the log says so once per attempt, without a traceback; once Redis is back,
the socket opens.
"""

import asyncio
import json
import re
import shutil
import subprocess
import time

import pytest
import websockets
from websockets.asyncio.client import connect as ws_connect

from tests.servers import DaphneServer, _free_port

# RFC 6455 §7.4.1 / IANA: "Try Again Later".
TRY_AGAIN_LATER = 1013
# Two tries of a table's page, then the lobby's: every socket that joins groups.
PATHS = ["/ws/tables/{table}/", "/ws/tables/{table}/", "/ws/lobby/"]
# A line of daphne's access log: `127.0.0.1:40000 - - [date] "WSCONNECTING /ws/..." - -`.
ACCESS_LOG = re.compile(r'\S+ - - \[[^]]*\] "')

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services
alice = User.objects.create_user("outage_a", password="pw-long-enough-1")
bob = User.objects.create_user("outage_b", password="pw-long-enough-1")
table = services.table_create(user=alice, seats_count=2, options={})
services.seat_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=alice)
client = Client()
client.force_login(alice)
print(json.dumps({"table": table.pk, "cookie": client.cookies[settings.SESSION_COOKIE_NAME].value}))
"""


class RedisServer:
    """A throwaway redis-server on a port of its own, without persistence."""

    def __init__(self, port: int, folder):
        self.port = port
        self.folder = folder
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            ping = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            )
            if ping.stdout.strip() == "PONG":
                return
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="module")
def outage(daphne_server):
    """A daphne on the shared test database whose channel layer is a redis-server that the
    test may stop: (daphne, redis)."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip("redis-server is missing: apt-get install redis-server")
    folder = daphne_server.folder / "outage"
    folder.mkdir(exist_ok=True)
    redis = RedisServer(_free_port(), folder)
    redis.start()
    env = dict(daphne_server.env, REDIS_URL=redis.url, CHANNEL_LAYER="queues")
    server = DaphneServer(port=_free_port(), env=env, folder=folder)
    try:
        server.start()
        yield server, redis
    finally:
        server.stop(kill=True)
        redis.stop()


async def open_socket(server, path, cookie):
    return await ws_connect(
        f"{server.ws_url}{path}",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={cookie}"},
    )


async def test_a_table_socket_during_a_redis_outage_is_told_to_try_again_later(outage):
    server, redis = outage
    setup = json.loads(server.shell(SETUP).strip().splitlines()[-1])
    socket = await open_socket(server, f"/ws/tables/{setup['table']}/", setup["cookie"])
    assert 'id="live"' in await asyncio.wait_for(socket.recv(), 10)
    await socket.close()
    # Its consumer has ended (daphne logged the disconnect) before Redis goes: a consumer
    # still listening when Redis stops is another case than the one tested here.
    deadline = time.monotonic() + 10
    while "WSDISCONNECT" not in server.log_path.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the first socket's disconnect was never logged"
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # the consumer handles the disconnect the server just logged

    redis.stop()
    log_start = server.log_path.stat().st_size
    for path in PATHS:
        # Not refused at the handshake (HTTP 500): accepted, then closed with 1013.
        socket = await open_socket(server, path.format(**setup), setup["cookie"])
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), 10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == TRY_AGAIN_LATER
    # Nothing to wait for but the absence of a late traceback (a failed layer receive,
    # groups left on a dead Redis): give the closed consumers a moment to end.
    await asyncio.sleep(2)
    with server.log_path.open(errors="replace") as log:
        log.seek(log_start)
        written = log.read()
    assert "Traceback" not in written, written[-3000:]
    # Daphne's access log names every socket (WSCONNECTING, WSDISCONNECT...): the rest is
    # the application's, one line per attempt.
    lines = [line for line in written.splitlines() if not ACCESS_LOG.match(line)]
    assert len(lines) == len(PATHS), written
    assert all("games.consumers" in line and "try again later" in line for line in lines), written

    # Redis is back: the same page opens its socket again.
    redis.start()
    socket = await open_socket(server, f"/ws/tables/{setup['table']}/", setup["cookie"])
    assert 'id="live"' in await asyncio.wait_for(socket.recv(), 10)
    await socket.close()
