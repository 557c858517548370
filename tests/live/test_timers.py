"""Deadlines with two server processes on one database: each applied once, on time (RULES 1.8).

Both daphne processes run a clock (games/clock.py). Twelve games get deadlines a moment
apart; every one must be timed out within a second of its deadline, by exactly one of
the two processes.
"""

import json
import time

import pytest

from tests.servers import DaphneServer, _free_port, wait_until_sync

SETUP = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Game
tables = []
for n in range(GAMES):
    a = User.objects.create_user(f"t{n}a", password="pw-long-enough-1")
    b = User.objects.create_user(f"t{n}b", password="pw-long-enough-1")
    table = services.table_create(user=a, seats_count=2, options={}, time_limit=60)
    services.seat_join(table_id=table.pk, user=b)
    services.table_start(table_id=table.pk, user=a)
    tables.append(table.pk)
start = timezone.now() + timedelta(seconds=3)
deadlines = {}
for index, pk in enumerate(tables):
    deadline = start + timedelta(milliseconds=250 * index)
    Game.objects.filter(table_id=pk).update(deadline=deadline)
    deadlines[pk] = deadline.timestamp()
print(json.dumps(deadlines))
"""

REPORT = """
from games.models import Decision
rows = Decision.objects.filter(source="timeout").values_list("game__table_id", "seat", "created_at")
print(json.dumps([[t, s, c.timestamp()] for t, s, c in rows]))
"""


@pytest.fixture(scope="module")
def second_server(daphne_server):
    server = DaphneServer(
        port=_free_port(), env=daphne_server.env, folder=daphne_server.folder / "second"
    )
    server.folder.mkdir(exist_ok=True)
    server.start()
    yield server
    server.stop(kill=True)


def test_every_deadline_is_enforced_once_and_within_a_second(daphne_server, second_server):
    games = 12
    deadlines = json.loads(
        daphne_server.shell(f"import json\nGAMES = {games}\n" + SETUP).strip().splitlines()[-1]
    )
    # /healthz of each process has started its clock.
    daphne_server.wait_healthy()
    second_server.wait_healthy()
    rows = []

    def every_game_timed_out():
        rows[:] = json.loads(daphne_server.shell("import json\n" + REPORT).strip().splitlines()[-1])
        return {str(table_id) for table_id, _, _ in rows} == set(deadlines)

    # The last deadline is 3 + 0.25 × 11 s away; a second more for a clock's tick, and more
    # for a slow machine: the test waits only until every game was timed out.
    wait_until_sync(every_game_timed_out, "some deadline was never enforced", 3 + 0.25 * games + 10)
    # A second clock's duplicate would claim the same expired deadline, within its tick.
    time.sleep(2 * 0.25)
    rows = json.loads(daphne_server.shell("import json\n" + REPORT).strip().splitlines()[-1])
    by_game = {}
    for table_id, seat, created in rows:
        by_game.setdefault(str(table_id), []).append((seat, created))
    assert sorted(by_game) == sorted(deadlines), "some deadline was never enforced"
    for table_id, decisions in by_game.items():
        # Both seats' lowest cards, once each: a second clock found the game already done.
        assert sorted(seat for seat, _ in decisions) == [0, 1], (table_id, decisions)
        for _, created in decisions:
            late = created - deadlines[table_id]
            assert -0.05 <= late <= 1.0, f"table {table_id} timed out {late:.3f} s after"
