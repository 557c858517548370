"""The real server for end-to-end tests: daphne in a subprocess, on its own fresh database;
and the browser. A pytest plugin (pyproject.toml: `-p tests.servers`): its fixtures
`daphne_server` and `chromium` are there for every test, its helpers are imported.

These tests use no pytest-django database: they talk to the server over HTTP and
WebSocket only, and read what the server stored through `manage.py shell` on the same
`DATABASE_URL`. With `DATABASE_URL` on PostgreSQL a database `sixclub_live_<random>` is
created on that server for the run, a copy of one migrated once per test process, and
dropped afterwards; otherwise a copy of a migrated SQLite file in a temporary folder.
`REDIS_URL` is passed through, with a key prefix of the run's own so that runs sharing a
Redis never hear each other's announcements.
"""

import asyncio
import atexit
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
DAPHNE = Path(sys.executable).with_name("daphne")
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
START_TIMEOUT = 30


async def wait_until(condition, message: str, seconds: float, interval: float = 0.05) -> None:
    """Wait for `condition()` to hold, checking every `interval`; fail with `message`
    after `seconds`. Waits only as long as the server needs, never a fixed time."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        await asyncio.sleep(interval)


def wait_until_sync(condition, message: str, seconds: float, interval: float = 0.2) -> None:
    """`wait_until` for tests without an event loop (`condition` may run `manage.py shell`)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(interval)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _is_postgres(url: str) -> bool:
    return urlsplit(url).scheme in {"postgres", "postgresql", "pgsql", "postgis"}


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _postgres_admin(url: str, statement: str) -> None:
    """Run CREATE/DROP DATABASE on the server of `url` (outside a transaction, as required)."""
    import psycopg

    # The maintenance database always exists; the one named in DATABASE_URL may not yet.
    admin_url = _with_database(url, "postgres")
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as connection:
        connection.execute(statement)


class DaphneServer:
    """One daphne process serving `config.asgi:application` on a fixed port and database."""

    def __init__(self, *, port: int, env: dict, folder: Path):
        self.port = port
        self.env = env
        self.folder = folder
        self.process: subprocess.Popen | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.folder / "daphne.log"

    def manage(self, *args: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise AssertionError(
                f"manage.py {' '.join(args[:1])} failed ({done.returncode}):\n"
                f"{done.stdout}\n{done.stderr}"
            )
        return done.stdout

    def shell(self, code: str) -> str:
        """Run Python in `manage.py shell` against the server's database; returns stdout."""
        return self.manage("shell", "--no-imports", "-c", code)

    def start(self, *, request: bool = True) -> None:
        """Serve; wait for /healthz to answer, or with `request=False` only for the port to
        listen (a server that has not served a single request yet)."""
        assert self.process is None, "the server is already running"
        self.starts += 1
        log = self.log_path.open("a")
        log.write(f"\n===== start {self.starts} =====\n")
        log.flush()
        self.process = subprocess.Popen(
            [
                str(DAPHNE),
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                # As in production (Makefile, docs/deploy.md): frames over 64 KiB close the socket.
                "--websocket-max-message-size",
                "65536",
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        if request:
            self.wait_healthy()
        else:
            self.wait_listening()

    def wait_listening(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(
                    f"daphne exited with {self.process.returncode}:\n{self.log_tail()}"
                )
            try:
                # A TCP connection alone: no HTTP request reaches the application.
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"port {self.port} did not listen in {timeout} s:\n{self.log_tail()}")

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def restart(self, *, kill: bool = True, request: bool = True) -> None:
        """Stop the process (SIGKILL: no chance to clean up), then serve again, same port/DB."""
        self.stop(kill=kill)
        self.start(request=request)

    def wait_healthy(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(
                    f"daphne exited with {self.process.returncode}:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
                    last = f"HTTP {response.status}"
            except urllib.error.HTTPError as error:
                last = f"HTTP {error.code}"
            except OSError as error:
                last = str(error)
            time.sleep(0.1)
        raise AssertionError(
            f"/healthz did not answer 200 in {timeout} s ({last}):\n{self.log_tail()}"
        )

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


# One migrated database per test process, copied for each server: migrating took each
# server's start 10-20 s. PostgreSQL copies a database named as a template; SQLite a file.
_templates: dict[str, str] = {}


def _migrated_template(url: str) -> str:
    """The name (PostgreSQL) or path (SQLite) of a migrated database on the server of `url`,
    made on the first call of this process."""
    key = "postgres" if _is_postgres(url) else "sqlite"
    if key not in _templates:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
        if key == "postgres":
            name = f"sixclub_template_{secrets.token_hex(6)}"
            _postgres_admin(url, f'CREATE DATABASE "{name}"')
            atexit.register(_postgres_admin, url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            env["DATABASE_URL"] = _with_database(url, name)
        else:
            name = urlsplit(url).path
            env["DATABASE_URL"] = url
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise AssertionError(f"migrate failed:\n{done.stdout}\n{done.stderr}")
        _templates[key] = name
    return _templates[key]


@pytest.fixture(scope="module")
def daphne_server(tmp_path_factory):
    """A running daphne on a free port and a freshly migrated database of its own."""
    yield from serve(tmp_path_factory)


def serve(tmp_path_factory, **extra_env):
    """What `daphne_server` yields, its environment given `extra_env` (settings read from
    it, e.g. AWAY_GRACE=3): for a module's own server fixture."""
    folder = tmp_path_factory.mktemp("daphne")
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="INFO",
        **extra_env,
    )
    # The tests play as fast as the machine goes; the per-user message limit is for people.
    env.setdefault("WS_RATE_BURST", "1000")
    env.setdefault("WS_RATE_PER_MINUTE", "100000")
    # A test's players open their pages when it needs them, not all the time: presence
    # (away after 30 s without a socket) has servers of its own (tests/e2e/test_presence.py).
    env.setdefault("AWAY_GRACE", "3600")
    base_url = os.environ.get("DATABASE_URL", "")
    database = None
    if base_url and _is_postgres(base_url):
        database = f"sixclub_live_{secrets.token_hex(6)}"
        template = _migrated_template(base_url)
        _postgres_admin(base_url, f'CREATE DATABASE "{database}" TEMPLATE "{template}"')
        env["DATABASE_URL"] = _with_database(base_url, database)
    else:
        live = folder / "live.sqlite3"
        shutil.copyfile(_migrated_template(f"sqlite:///{folder.parent / 'migrated.sqlite3'}"), live)
        env["DATABASE_URL"] = f"sqlite:///{live}"
    if os.environ.get("REDIS_URL"):
        env["REDIS_PREFIX"] = f"sixclub_live_{secrets.token_hex(6)}"
    server = DaphneServer(port=_free_port(), env=env, folder=folder)
    try:
        server.start()
        yield server
    finally:
        server.stop(kill=True)
        if database:
            _postgres_admin(base_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


@pytest.fixture
async def chromium():
    """Debian's Chromium driven by Playwright (its own browser download is not used)."""
    message = "Chromium is missing: apt-get install chromium"
    if not CHROMIUM.exists():
        if os.environ.get("SIXCLUB_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            await browser.close()
