"""A standings recompute started from the admin lives in the task queue: it survives the
web process's restart, and a worker killed with -9 in the middle of it leaves it shown as
failed (never "running" for good), with nothing half-done, so that it can run again.

The real daphne (the admin, over HTTP) and real `manage.py db_worker` processes on a
database of their own, with a season of a few thousand generated games
(`manage.py demo_league`) so that the recompute runs long enough to be killed mid-way.
"""

import json
import secrets
import sqlite3
import subprocess
import sys
import urllib.parse
import urllib.request

import psycopg
import pytest

from tests.servers import ROOT, serve, wait_until_sync

pytestmark = pytest.mark.e2e

GAMES = 3000
# A recompute started this long ago and unfinished lost its worker (leagues/tasks.py):
# longer than the whole recompute of GAMES games takes here.
TIMEOUT = 20

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from leagues.models import Season, Standing

season = Season.objects.get(league__slug="big")
Season.objects.filter(pk=season.pk).update(placement_points="12,7,3,1")
root = User.objects.create_superuser(
    "root", "root@example.org", "Unguessable-Worker-99", preferred_language="en"
)
client = Client()
client.force_login(root)
print(json.dumps({
    "season": season.pk,
    "session": [settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value],
}))
"""

STANDINGS = """
import json
from leagues.models import Standing

print(json.dumps(sorted(
    Standing.objects.filter(season_id=%(season)d).values_list("user_id", "points", "games")
)))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve(tmp_path_factory, RECOMPUTE_TIMEOUT=str(TIMEOUT))


class Admin:
    """The season's admin pages over HTTP, as a logged-in superuser."""

    def __init__(self, server, session: list[str]):
        self.server = server
        self.csrf = secrets.token_hex(16)  # a token of 32 characters, as Django's
        self.cookies = f"{session[0]}={session[1]}; csrftoken={self.csrf}"

    def _open(self, path: str, data: dict | None = None) -> str:
        body = None if data is None else urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(self.server.url + path, data=body)
        request.add_header("Cookie", self.cookies)
        request.add_header("Accept-Language", "en")
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read().decode()

    def recompute(self, season: int) -> None:
        """The season list's action (its message is in a cookie this client does not keep)."""
        data = {
            "action": "recompute_standings",
            "_selected_action": [season],
            "csrfmiddlewaretoken": self.csrf,
        }
        self._open("/admin/leagues/season/", data)

    def shown(self, season: int) -> str:
        page = self._open(f"/admin/leagues/season/{season}/change/")
        start = page.index("field-standings_recompute")
        return page[start : start + 600]


class Database:
    """Reads the server's database directly: fast enough to catch a recompute mid-way."""

    def __init__(self, url: str):
        self.url = url

    def row(self, sql: str):
        if self.url.startswith("sqlite"):
            with sqlite3.connect(self.url.removeprefix("sqlite:///")) as connection:
                return connection.execute(sql).fetchone()
        with psycopg.connect(self.url, autocommit=True) as connection:
            return connection.execute(sql).fetchone()

    def jobs(self) -> list:
        sql = (
            "SELECT count(*), max(id) FROM leagues_standingsrecompute "
            "WHERE started_at IS NOT NULL AND finished_at IS NULL"
        )
        return self.row(sql)

    def job(self, pk: int):
        return self.row(
            "SELECT started_at IS NOT NULL, finished_at IS NOT NULL, games_done, error "
            f"FROM leagues_standingsrecompute WHERE id = {pk}"
        )


def start_worker(server, name: str) -> subprocess.Popen:
    log = (server.folder / f"{name}.log").open("a")
    command = [
        sys.executable,
        "manage.py",
        "db_worker",
        "--no-reload",
        "--no-startup-delay",
        "--interval",
        "0.2",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=server.env, stdout=log, stderr=log)


def test_a_recompute_survives_a_web_restart_and_a_killed_worker(server):
    server.manage("demo_league", "--slug", "big", "--players", "40", "--games", str(GAMES))
    setup = json.loads(server.shell(SETUP))
    season = setup["season"]
    before = server.shell(STANDINGS % {"season": season})
    admin = Admin(server, setup["session"])
    db = Database(server.env["DATABASE_URL"])

    # The admin queues the recompute; no worker runs yet, and the web process restarts.
    admin.recompute(season)
    assert db.row("SELECT count(*) FROM django_tasks_database_dbtaskresult") == (1,)
    assert "Waiting to start" in admin.shown(season)
    server.restart(kill=True)
    assert "Waiting to start" in admin.shown(season)

    # A worker takes it and is killed with -9 in the middle of it.
    first = start_worker(server, "worker-1")
    workers = [first]
    try:
        wait_until_sync(lambda: db.jobs()[0] == 1, "the worker to start the recompute", 60, 0.02)
        job = db.jobs()[1]
        if not db.url.startswith("sqlite"):
            # On PostgreSQL progress is written as it goes: kill it once there is some.
            wait_until_sync(lambda: db.job(job)[2] > 0, "progress", 60, 0.02)
        first.kill()
        first.wait(timeout=10)
        assert db.job(job)[:2] == (True, False)  # started, never finished
        # One transaction: nothing of the killed recompute was kept.
        assert server.shell(STANDINGS % {"season": season}) == before

        # Another worker starts; the admin shows the lost recompute as failed in time.
        workers.append(start_worker(server, "worker-2"))
        assert "Running" in admin.shown(season)
        wait_until_sync(
            lambda: "Failed: its worker stopped before the end" in admin.shown(season),
            "the admin to show the lost recompute as failed",
            TIMEOUT + 30,
            0.5,
        )
        assert db.job(job)[:2] == (True, False)

        # Started again, the new worker runs it to the end.
        admin.recompute(season)
        assert db.row("SELECT count(*) FROM leagues_standingsrecompute") == (2,)
        wait_until_sync(
            lambda: "Done at" in admin.shown(season), "the recompute to finish", 120, 0.5
        )
    finally:
        for worker in workers:
            worker.kill()
            worker.wait(timeout=10)
    again = db.jobs()
    assert again[0] == 1 and again[1] == job  # the killed one only, left as it was
    after = server.shell(STANDINGS % {"season": season})
    assert after != before  # with the new placement points
    # The same as a recompute in the shell from the same score sheets.
    server.manage("recompute_standings", "--season", str(season))
    assert server.shell(STANDINGS % {"season": season}) == after
