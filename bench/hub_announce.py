"""CPU of one announcement between two server processes' hubs, through a real Redis.

    .venv/bin/python bench/hub_announce.py [--announcements 20000] [--tables 50]

Two hubs (games/hub.py) in this process stand for two server processes at the same
tables: one announces a version with a move like the load generator's games make, the
other hears it and hands it to a socket-like object of the table. The CPU of this
process divided by the announcements is what one announcement costs to publish and to
hear (plus the publisher hearing its own message come back), without rendering.

REDIS_URL (default redis://127.0.0.1:6379/5) says which Redis. Run it from another
checkout's folder to measure that checkout's hub: it imports from the current folder.
"""

import argparse
import asyncio
import os
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games.hub import Hub  # noqa: E402

# About what a selection's move carries (rendering.move_of): changed state entries, the
# game's play fields, a table print.
MOVE = {
    "state": {"selected": [None, 41, None, 87, None], "to_act": [0, 2, 4]},
    "hands": {"1": [3, 17, 22, 58, 64, 71, 90, 101, 103]},
    "play": {"version": 12, "point_version": 11, "deadline": None, "finished_at": None},
    "seats_version": 3,
    "table": "a" * 40,
}


class Screen:
    def __init__(self, expected: int, done: asyncio.Future):
        self.heard, self.expected, self.done = 0, expected, done

    async def table_changed(self, event):
        self.heard += 1
        if self.heard == self.expected and not self.done.done():
            self.done.set_result(None)


async def run(announcements: int, tables: int) -> None:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/5"
    here, there = Hub(None, url, "hubbench"), Hub(None, url, "hubbench")
    rounds = announcements // tables
    loop = asyncio.get_running_loop()
    screens = []
    for table in range(tables):
        await here.join(table, Screen(rounds, loop.create_future()))
        screen = Screen(rounds, loop.create_future())
        await there.join(table, screen)
        screens.append(screen)
    await asyncio.sleep(1.0)  # subscriptions confirmed, the hubs met at every table
    cpu, wall = time.process_time(), time.perf_counter()
    for version in range(1, rounds + 1):
        event = {"type": "table.changed", "version": version, "move": MOVE}
        await asyncio.gather(*(here.announce(table, event) for table in range(tables)))
    await asyncio.wait_for(asyncio.gather(*(screen.done for screen in screens)), 60)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    total = rounds * tables
    print(
        f"{total} announcements over {tables} tables: {1e6 * cpu / total:.1f} us of CPU each"
        f" (publish and hear), {total / wall:.0f} per second"
    )
    for hub in (here, there):
        if hasattr(hub, "close"):
            hub.close()
        elif getattr(hub, "client", None) is not None:  # before games/resp.py
            hub._stop()
            await hub.client.aclose()
    await asyncio.sleep(0.1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--announcements", type=int, default=20000)
    parser.add_argument("--tables", type=int, default=50)
    options = parser.parse_args()
    asyncio.run(run(options.announcements, options.tables))


if __name__ == "__main__":
    main()
