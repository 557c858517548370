"""The deployment of deploy/ (issue 33): `deploy/run` starts two daphne processes, the task
worker and Debian's nginx in front (deploy/nginx), on a fresh PostgreSQL database and
Redis. Players log in, create, join and start a table over HTTP and play over WebSockets,
all through nginx: a table's pages and sockets land on one process. In the middle of the
game that process is killed with -9: the players reconnect through nginx to the other one
and play to the game's end; every decision acknowledged is in the game's log, once.
"""

import asyncio
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from bench import _http
from tests.live.test_restart_under_load import CHECK, Player
from tests.servers import (
    ROOT,
    _free_port,
    _is_postgres,
    _migrated_template,
    _postgres_admin,
    _with_database,
)

pytestmark = pytest.mark.e2e

NGINX = Path("/usr/sbin/nginx")
PLAYERS = 3
ROUNDS = 2
PASSWORD = "nginx-deploy-password-8Kq"
# Decisions acknowledged before the kill: the middle of the first round.
BEFORE_KILL = 12

USERS = """
from accounts.models import User
for name in %r:
    User.objects.create_user(name, password=%r, preferred_language="en")
"""


class Deployment:
    """`deploy/run` with its environment, run folder and ports; nginx at `url`."""

    def __init__(self, env: dict, folder: Path, ports: list[int], listen: int):
        self.env, self.folder, self.ports = env, folder, ports
        self.url = f"http://127.0.0.1:{listen}"
        self.ws_url = f"ws://127.0.0.1:{listen}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(ROOT / "deploy" / "run")],
            cwd=ROOT,
            env=self.env,
            stdout=(self.folder / "run.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one below
        )
        deadline = time.monotonic() + 60
        addresses = [self.url] + [f"http://127.0.0.1:{port}" for port in self.ports]
        while not all(self._healthy(address) for address in addresses):
            assert self.process.poll() is None, f"deploy/run exited:\n{self.logs()}"
            assert time.monotonic() < deadline, f"not healthy in 60 s:\n{self.logs()}"
            time.sleep(0.2)

    @staticmethod
    def _healthy(address: str) -> bool:
        try:
            with urllib.request.urlopen(f"{address}/healthz", timeout=2) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def pid(self, port: int) -> int:
        return int((self.folder / f"daphne-{port}.pid").read_text())

    def access_log(self) -> list[tuple[str, str, str]]:
        """(request line, table, the process that answered) of each request nginx logged."""
        text = (self.folder / "nginx-access.log").read_text()
        found = re.findall(r'"([^"]*)" \d+ \d+ upstream=(.*?) table=(\d*) ', text)
        return [(request, table, upstreams.split(", ")[-1]) for request, upstreams, table in found]

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:]
            for path in sorted(self.folder.glob("*.log"))
        )

    def shell(self, code: str) -> str:
        done = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "shell",
                "--no-imports",
                "-c",
                code,
            ],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    if not NGINX.exists():
        message = "nginx is missing: apt-get install nginx"
        if os.environ.get("SIXCLUB_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    base_url = os.environ.get("DATABASE_URL", "")
    if not _is_postgres(base_url) or not os.environ.get("REDIS_URL"):
        pytest.skip("two processes share PostgreSQL and Redis: set DATABASE_URL and REDIS_URL")
    folder = tmp_path_factory.mktemp("deploy")
    # Named after the database of DATABASE_URL: sixclub_ci_live_<random> in CI.
    named = urlsplit(base_url).path.strip("/") or "sixclub"
    database = f"{named}_live_{secrets.token_hex(6)}"
    ports = [_free_port(), _free_port()]
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="INFO",
        DATABASE_URL=_with_database(base_url, database),
        REDIS_PREFIX=f"sixclub_live_{secrets.token_hex(6)}",
        WS_RATE_BURST="1000",
        WS_RATE_PER_MINUTE="100000",
        AWAY_GRACE="3600",
        SIXCLUB_PORTS=" ".join(map(str, ports)),
        SIXCLUB_RUN=str(folder),
    )
    listen = _free_port()
    env["SIXCLUB_LISTEN"] = f"127.0.0.1:{listen}"
    template = _migrated_template(base_url)
    _postgres_admin(base_url, f'CREATE DATABASE "{database}" TEMPLATE "{template}"')
    server = Deployment(env, folder, ports, listen)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        _postgres_admin(base_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


async def set_up_table(server: Deployment, names: list[str]) -> tuple[int, list]:
    """Log the players in and create, join and start a table, over HTTP through nginx."""
    browsers = [_http.Browser(server.url) for _ in names]
    for browser, name in zip(browsers, names, strict=True):
        await browser.login(name, PASSWORD)
    creator = browsers[0]
    answer = await creator.post(
        "/tables/",
        {
            "name": "nginx",
            "seats_count": len(names),
            "end": "rounds",
            "rounds": ROUNDS,
            "threshold": 66,
            "deal": "random",
            "time_limit": 0,
            "is_public": "on",
            "csrfmiddlewaretoken": creator.cookies.get("csrftoken", ""),
        },
    )
    match = re.fullmatch(r"/tables/(\d+)/", answer.header("location"))
    assert answer.status == 302 and match, f"{answer.status}: {answer.text[:500]}"
    table_id = int(match.group(1))
    for browser in browsers[1:]:
        assert await browser.htmx_post(f"/tables/{table_id}/join/") == ""
    assert await creator.htmx_post(f"/tables/{table_id}/start/") == ""
    for browser in browsers:
        assert (await browser.get(f"/tables/{table_id}/")).status == 200
    return table_id, browsers


def game_row(server: Deployment, table_id: int) -> tuple[bool, int]:
    """(finished, version) of the table's game, read from the database."""
    with psycopg.connect(server.env["DATABASE_URL"], autocommit=True) as connection:
        return connection.execute(
            "SELECT finished_at IS NOT NULL, version FROM games_game WHERE table_id = %s",
            [table_id],
        ).fetchone()


async def wait_for(condition, message: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not await asyncio.to_thread(condition):
        assert time.monotonic() < deadline, message
        await asyncio.sleep(0.1)


async def test_a_game_through_nginx_survives_a_killed_process(deployment):
    server = deployment
    names = [f"ng{secrets.token_hex(3)}p{p}" for p in range(PLAYERS)]
    server.shell(USERS % (names, PASSWORD))
    table_id, browsers = await set_up_table(server, names)

    # Everything of the table so far (logins aside) went to one process: its home.
    table_requests = [entry for entry in server.access_log() if entry[1] == str(table_id)]
    assert len(table_requests) >= PLAYERS + 2  # joins, start, pages
    homes = {upstream for _, _, upstream in table_requests}
    assert len(homes) == 1, f"table {table_id} on several processes: {table_requests}"
    home = homes.pop()
    home_port = int(home.rsplit(":", 1)[1])
    other = f"127.0.0.1:{next(port for port in server.ports if port != home_port)}"
    # Anything else goes to either process.
    logged = len(server.access_log())
    for _ in range(4):
        assert server._healthy(server.url)
    assert {upstream for _, _, upstream in server.access_log()[logged:]} == {home, other}

    players = [
        Player(server, table_id, browser.cookies["sessionid"], name)
        for browser, name in zip(browsers, names, strict=True)
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(player.run(stop)) for player in players]

    def acked() -> int:
        return sum(len(player.acked) for player in players)

    try:
        await wait_for(lambda: acked() >= BEFORE_KILL, "nothing was played before the kill", 30)
        # The sockets were opened through nginx, on the table's home.
        os.kill(server.pid(home_port), signal.SIGKILL)
        killed = time.monotonic()
        acked_at_kill = acked()
        finished, version_at_kill = game_row(server, table_id)
        assert not finished, "the game ended before the kill: more rounds"

        await wait_for(lambda: game_row(server, table_id)[0], "the game did not end", 45)
    finally:
        stop.set()
        await asyncio.gather(*tasks)

    # Every player came back through nginx and the game went on to its end.
    for player in players:
        assert any(moment > killed for moment in player.reconnected_at), player.name
    assert acked() > acked_at_kill
    assert game_row(server, table_id)[1] > version_at_kill
    # The table's sockets after the kill were served by the other process.
    sockets = [up for request, table, up in server.access_log() if request.startswith("GET /ws/")]
    assert other in sockets, f"no socket moved to {other}: {sockets}"

    report = json.loads(server.shell(CHECK).strip().splitlines()[-1])[str(table_id)]
    assert report["log_matches_snapshot"], "log and snapshot differ"
    assert report["twice"] == [], f"ids applied twice: {report['twice']}"
    assert report["version"] == report["decisions"]
    for player in players:
        missing = set(player.acked) - set(report["ids"])
        assert not missing, f"{player.name}: acknowledged but lost: {sorted(missing)[:5]}"
