"""A table whose players sit on two server processes sharing PostgreSQL and Redis
(issue 6): every decision, made in either process, reaches the screens of the other, and
the game plays on as with one process.

The players are the restart test's clients (they decide whenever their screen asks them
to); the seats of each table alternate between the two processes. If a reveal made in
one process did not reach the other's screens, the players there would never see the
next turn and the table would stop.
"""

import asyncio
import time

import pytest

from tests.live.test_restart_under_load import CHECK, SETUP, Player, shell_json
from tests.servers import DaphneServer, _free_port

TABLES = 4
PLAYERS = 3


@pytest.fixture(scope="module")
def second_server(daphne_server):
    folder = daphne_server.folder / "second"
    folder.mkdir(exist_ok=True)
    server = DaphneServer(port=_free_port(), env=daphne_server.env, folder=folder)
    server.start()
    yield server
    server.stop(kill=True)


async def test_a_table_split_across_two_processes_plays_on(daphne_server, second_server):
    if not daphne_server.env.get("REDIS_URL"):
        pytest.skip("two processes hear each other through Redis: set REDIS_URL")
    setup = shell_json(daphne_server, f"TABLES = {TABLES}\nPLAYERS = {PLAYERS}\n" + SETUP)
    servers = [daphne_server, second_server]
    players = [
        Player(servers[(t + p) % 2], table_id, setup["cookies"][name], name)
        for t, (table_id, names) in enumerate(setup["tables"])
        for p, name in enumerate(names)
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(player.run(stop)) for player in players]

    def played_on():
        # Ten turns at least at every table, every one of them with a seat on each process.
        report = shell_json(daphne_server, CHECK)
        return all(
            report[str(table_id)]["version"] >= 10 * PLAYERS for table_id, _ in setup["tables"]
        )

    try:
        deadline = time.monotonic() + 60
        while not await asyncio.to_thread(played_on):
            if time.monotonic() > deadline:
                break  # the assertions below say which table stopped
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        await asyncio.gather(*tasks)

    report = shell_json(daphne_server, CHECK)
    for table_id, _names in setup["tables"]:
        game = report[str(table_id)]
        assert game["log_matches_snapshot"], f"table {table_id}: log and snapshot differ"
        assert game["twice"] == [], f"table {table_id}: ids applied twice {game['twice']}"
        # Ten turns at least, every one of them with a seat on each process.
        assert game["version"] >= 10 * PLAYERS, f"table {table_id} stopped at {game['version']}"
        for player in players:
            if player.table_id == table_id:
                assert not set(player.acked) - set(game["ids"]), "acknowledged but lost"
