"""The servers under test for bench/ws_load.py, and what they cost in CPU and memory.

`Stack` starts a fresh PostgreSQL database on the server of DATABASE_URL (named after the
database of DATABASE_URL when it names one, e.g. sixclub_ci_load_<random>), migrates it, and
runs one or more real daphne processes on loopback that share it and one Redis (with a key
prefix of the run's own, so that other runs on the same Redis are never heard); with
`nginx`, Debian's nginx in front of them, configured by deploy/nginx (a table's pages and
sockets on one process). Everything it starts it stops, and the database is dropped at the
end.

`ProcessMeter` reads user+system CPU seconds and resident memory from /proc, for the
daphne processes and, machine-wide, for PostgreSQL and Redis.
"""

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
NGINX = Path("/usr/sbin/nginx")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def require_loopback(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in LOOPBACK:
        raise SystemExit(f"refusing {url}: the load generator only talks to 127.0.0.1")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _postgres_admin(url: str, statement: str) -> None:
    import psycopg

    admin_url = _with_database(url, "postgres")
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as connection:
        connection.execute(statement)


def manage(env: dict, *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


CREATE_USERS = """
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
User = get_user_model()
hashed = make_password({password!r})
User.objects.bulk_create(
    [User(username=f"{prefix}{{i}}", password=hashed) for i in range({count})],
    batch_size=500,
)
print(User.objects.filter(username__startswith={prefix!r}).count())
"""


def create_users(env: dict, prefix: str, count: int, password: str) -> None:
    """Accounts `<prefix>0` … `<prefix><count-1>`, all with one password (hashed once)."""
    code = CREATE_USERS.format(prefix=prefix, count=count, password=password)
    made = int(manage(env, "shell", "--no-imports", "-c", code).strip().splitlines()[-1])
    if made != count:
        raise RuntimeError(f"created {made} accounts instead of {count}")


def wait_healthy(url: str, process: subprocess.Popen | None, log: Path | None, timeout=60.0):
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log else ""
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError as error:
            last = f"HTTP {error.code}"
        except OSError as error:
            last = str(error)
        time.sleep(0.2)
    raise RuntimeError(f"{url}/healthz did not answer 200 in {timeout:.0f} s ({last})")


@dataclass
class Stack:
    """Fresh database + 1..n daphne processes on loopback; `stop()` undoes all of it."""

    servers: int = 1
    nginx: bool = False
    database_url: str = "postgres://postgres@127.0.0.1:5432/"
    redis_url: str = "redis://127.0.0.1:6379/0"
    debug: bool = False
    extra_env: dict = field(default_factory=dict)
    processes: list = field(default_factory=list)
    urls: list = field(default_factory=list)
    nginx_process: subprocess.Popen | None = None
    nginx_url: str = ""
    database: str = ""
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="sixclub-load-")))

    def env(self) -> dict:
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=_with_database(self.database_url, self.database),
            REDIS_URL=self.redis_url,
            REDIS_PREFIX=f"sixclub_load_{self.token}",
            PYTHONUNBUFFERED="1",
            LOG_LEVEL="WARNING",
        )
        if self.nginx:
            env["TRUSTED_PROXIES"] = "1"  # as behind nginx in production (docs/deploy.md)
        if self.debug:
            env["DEBUG"] = "1"
        else:
            # Production settings, as docs/deploy.md has them, minus TLS: daphne is reached
            # directly on loopback, so no redirect to https.
            env.update(
                DEBUG="0",
                SECRET_KEY=f"load-{self.token}-{secrets.token_urlsafe(32)}",
                ALLOWED_HOSTS="127.0.0.1",
                SECURE_SSL_REDIRECT="0",
            )
        env.update(self.extra_env)
        return env

    def start(self) -> None:
        require_loopback(self.database_url)
        require_loopback(self.redis_url)
        self.token = secrets.token_hex(5)
        # sixclub_load_<random>, or <name>_load_<random> when DATABASE_URL names a database.
        named = urlsplit(self.database_url).path.strip("/") or "sixclub"
        self.database = f"{named}_load_{self.token}"
        _postgres_admin(self.database_url, f'CREATE DATABASE "{self.database}"')
        env = self.env()
        manage(env, "migrate", "--noinput", "--verbosity", "0")
        if not self.debug:
            # Production storage renders {% static %} from the manifest (`make run` does it).
            manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        for _ in range(self.servers):
            self._start_daphne(env)
        for process, url in zip(self.processes, self.urls, strict=True):
            wait_healthy(url, process, self.folder / f"daphne-{url.rsplit(':', 1)[1]}.log")
        if self.nginx:
            self._start_nginx()

    def _start_nginx(self) -> None:
        """Debian's nginx in front of the daphne processes, with deploy/nginx's configuration
        rendered into the run's folder (its logs beside the daphne ones)."""
        if not NGINX.exists():
            raise SystemExit(f"{NGINX} is missing: apt-get install nginx")
        folder = self.folder / "nginx"
        port = free_port()
        done = subprocess.run(
            [str(BIN / "python"), str(ROOT / "deploy" / "nginx" / "render.py")]
            + [f"--upstream={url.removeprefix('http://')}" for url in self.urls]
            + [f"--listen=127.0.0.1:{port}", "--standalone", str(folder)],
            capture_output=True,
            text=True,
            check=True,
        )
        conf = done.stdout.strip()
        error_log = folder / "nginx-error.log"
        self.nginx_process = subprocess.Popen(
            [str(NGINX), "-p", str(folder), "-e", str(error_log), "-c", conf],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.nginx_url = f"http://127.0.0.1:{port}"
        wait_healthy(self.nginx_url, self.nginx_process, error_log)

    def _start_daphne(self, env: dict) -> None:
        port = free_port()
        log_path = self.folder / f"daphne-{port}.log"
        with log_path.open("w") as log:
            process = subprocess.Popen(
                [
                    str(BIN / "daphne"),
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "--websocket-max-message-size",
                    "65536",
                    "config.asgi:application",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.processes.append(process)
        self.urls.append(f"http://127.0.0.1:{port}")

    def errors_logged(self) -> int:
        """ERROR lines written by the daphne processes (a traceback counts once)."""
        return sum(
            log.read_text(errors="replace").count(" ERROR ")
            for log in self.folder.glob("daphne-*.log")
        )

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    @property
    def nginx_pids(self) -> list[int]:
        """nginx's master and worker processes."""
        if self.nginx_process is None:
            return []
        master = self.nginx_process.pid
        children = Path(f"/proc/{master}/task/{master}/children")
        with contextlib.suppress(OSError):
            return [master, *map(int, children.read_text().split())]
        return [master]

    def stop(self) -> None:
        if self.nginx_process is not None:
            self.nginx_process.terminate()
            try:
                self.nginx_process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx_process.kill()
                self.nginx_process.wait(timeout=10)
            self.nginx_process = None
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        self.processes.clear()
        if self.database:
            try:
                _postgres_admin(
                    self.database_url, f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)'
                )
            except Exception as error:  # report, but never hide the run's own error
                print(f"could not drop {self.database}: {error}", file=sys.stderr)
            self.database = ""


# --- /proc readings --------------------------------------------------------------------------


def cpu_seconds(pid: int, children: bool = False) -> float:
    """User + system CPU seconds of a process, all its threads included.

    With `children`, also those of its children that have exited and been waited for:
    PostgreSQL's short-lived backends end up in the postmaster's figures that way.
    """
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLOCK_TICKS


def main_thread_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process's main thread: daphne's event loop (twisted + asyncio)."""
    with open(f"/proc/{pid}/task/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * PAGE_KB / 1024


def pids_named(*names: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as comm:
                if comm.read().strip() in names:
                    found.append(int(entry))
        except OSError:
            continue
    return found


def listening_pid(port: int) -> int | None:
    """The process listening on a TCP port of this machine (for --url servers)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(parts[9])
    targets = {f"socket:[{inode}]" for inode in inodes}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            for fd in os.listdir(f"/proc/{entry}/fd"):
                if os.readlink(f"/proc/{entry}/fd/{fd}") in targets:
                    return int(entry)
        except OSError:
            continue
    return None


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    return (total - idle) / CLOCK_TICKS, total / CLOCK_TICKS


class ProcessMeter:
    """CPU used between `start()` and `stop()`, and the peak resident memory seen."""

    def __init__(self, daphne_pids: list[int], nginx_pids: list[int] = ()):
        self.daphne = list(daphne_pids)
        self.nginx = list(nginx_pids)

    def _group_cpu(self, pids) -> float:
        total = 0.0
        for pid in pids:
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid, children=True)
        return total

    def _read(self) -> dict:
        pg = pids_named("postgres")
        redis = pids_named("redis-server")
        busy, total = machine_busy_seconds()
        return {
            "daphne": [cpu_seconds(pid) for pid in self.daphne],
            "daphne_loop": [main_thread_cpu_seconds(pid) for pid in self.daphne],
            "postgres": self._group_cpu(pg),
            "redis": self._group_cpu(redis),
            "nginx": self._group_cpu(self.nginx),
            "client": sum(os.times()[:2]),
            "busy": busy,
            "total": total,
            "wall": time.monotonic(),
        }

    def start(self) -> None:
        self.before = self._read()
        self.peak_rss = [rss_mb(pid) for pid in self.daphne]

    def sample(self) -> None:
        for index, pid in enumerate(self.daphne):
            with contextlib.suppress(OSError):
                self.peak_rss[index] = max(self.peak_rss[index], rss_mb(pid))

    def stop(self) -> dict:
        self.sample()
        after = self._read()
        before = self.before
        wall = after["wall"] - before["wall"]
        cores = os.cpu_count() or 1
        return {
            "wall": wall,
            "daphne_cpu": [
                (a - b) / wall for a, b in zip(after["daphne"], before["daphne"], strict=True)
            ],
            "daphne_loop_cpu": [
                (a - b) / wall
                for a, b in zip(after["daphne_loop"], before["daphne_loop"], strict=True)
            ],
            "daphne_rss_mb": self.peak_rss,
            "postgres_cpu": (after["postgres"] - before["postgres"]) / wall,
            "redis_cpu": (after["redis"] - before["redis"]) / wall,
            "nginx_cpu": (after["nginx"] - before["nginx"]) / wall,
            "nginx_measured": bool(self.nginx),
            "client_cpu": (after["client"] - before["client"]) / wall,
            "machine_cpu": (after["busy"] - before["busy"])
            / max(after["total"] - before["total"], 1e-9)
            * cores,
            "cores": cores,
            "loadavg_1min": os.getloadavg()[0],
        }
