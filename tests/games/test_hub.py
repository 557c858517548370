"""The per-process hub of table announcements (games/hub.py), on a real Redis of its own.

Each test starts a redis-server on a free loopback port, so that it can be stopped and
started again without touching the Redis the rest of the suite uses. Two hubs stand for
two server processes. The last test runs the hub without Redis, on the in-memory layer.
"""

import asyncio
import json
import time

import pytest
from channels.layers import InMemoryChannelLayer

from games.hub import Hub, table_channel
from tests.games.redis_server import needs_redis_server

pytestmark = needs_redis_server


class Screen:
    """Stands for a socket of a table: records what the hub hands it."""

    def __init__(self):
        self.events = []

    async def table_changed(self, event):
        self.events.append(event)


def versions(screen):
    return [event["version"] for event in screen.events]


async def settle(seconds=0.3):
    await asyncio.sleep(seconds)


async def close(*hubs):
    for hub in hubs:
        tasks = list(hub.tasks)
        hub.close()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_an_announcement_reaches_every_screen_of_its_table_once_in_every_process(
    redis_server,
):
    here, there = redis_server.hub(), redis_server.hub()
    mine, also_mine, other_table = Screen(), Screen(), Screen()
    theirs = Screen()
    await here.join(1, mine)
    await here.join(1, also_mine)
    await here.join(2, other_table)
    await there.join(1, theirs)

    await here.announce(1, {"type": "table.changed", "version": 7})
    await settle()

    for screen in (mine, also_mine, theirs):
        assert versions(screen) == [7]
        assert screen.events[0]["table"] == 1
    assert other_table.events == []
    # One subscription per process, whatever its number of sockets of the table.
    assert await redis_server.listeners(1) == 2
    await close(here, there)


async def test_the_last_screen_of_a_table_to_leave_takes_the_process_off_its_channel(
    redis_server,
):
    here, there = redis_server.hub(), redis_server.hub()
    first, second, theirs = Screen(), Screen(), Screen()
    await here.join(1, first)
    await here.join(1, second)
    await there.join(1, theirs)

    await here.leave(1, first)
    await there.announce(1, {"type": "table.changed", "version": 3})
    await settle()
    assert versions(second) == [3]
    assert first.events == []

    await here.leave(1, second)
    await here.leave(1, second)  # twice: nothing happens
    await there.announce(1, {"type": "table.changed", "version": 4})
    await settle()
    assert versions(second) == [3]
    assert await redis_server.listeners(1) == 1
    # No socket of any table left: the process no longer listens at all.
    await settle(0.05)
    assert here.subscriber is None and not here.tasks
    await close(here, there)


async def test_after_a_redis_restart_the_hub_joins_again_and_screens_render_afresh(redis_server):
    here = redis_server.hub()
    screen = Screen()
    await here.join(5, screen)

    redis_server.kill()  # its subscriptions are gone with it
    await settle(0.5)
    # A socket of another table opens while Redis is away: it is heard once Redis is back.
    latecomer = Screen()
    await here.join(6, latecomer)
    redis_server.start()

    there = redis_server.hub()
    deadline = time.monotonic() + 15
    while not any(event["version"] is None for event in screen.events):
        assert time.monotonic() < deadline, "the hub never listened again"
        await settle(0.2)
    # Whatever was announced while Redis was away, the screen reads the table afresh...
    assert screen.events[-1] == {"type": "table.changed", "table": 5, "version": None}
    # ...and hears what other processes announce from then on.
    await there.announce(5, {"type": "table.changed", "version": 9})
    deadline = time.monotonic() + 5
    while screen.events[-1].get("version") != 9:
        assert time.monotonic() < deadline, "no announcement after the restart"
        await settle(0.1)
    await there.announce(6, {"type": "table.changed", "version": 2})
    deadline = time.monotonic() + 5
    while not latecomer.events or latecomer.events[-1].get("version") != 2:
        assert time.monotonic() < deadline, "the table joined while Redis was away is unheard"
        await settle(0.1)
    await close(here, there)


async def test_a_screen_that_fails_does_not_keep_the_others_from_hearing(redis_server):
    class Broken(Screen):
        async def table_changed(self, event):
            raise RuntimeError("this socket is gone")

    here = redis_server.hub()
    broken, fine = Broken(), Screen()
    await here.join(1, broken)
    await here.join(1, fine)
    await here.announce(1, {"type": "table.changed", "version": 2})
    await settle()
    assert versions(fine) == [2]
    await close(here)


async def test_without_redis_the_hub_listens_through_the_channel_layer():
    layer = InMemoryChannelLayer()
    here, there = Hub(layer), Hub(layer)
    mine, theirs = Screen(), Screen()
    await here.join(3, mine)
    await there.join(3, theirs)
    await here.announce(3, {"type": "table.changed", "version": 4})
    await settle(0.1)
    assert versions(mine) == [4]
    assert versions(theirs) == [4]
    await here.leave(3, mine)
    await there.announce(3, {"type": "table.changed", "version": 5})
    await settle(0.1)
    assert versions(mine) == [4]
    await there.leave(3, theirs)
    await settle(0.05)
    assert here.channel is None and not here.tasks and not there.tasks


class Observer:
    """A plain Redis subscriber of a table's channel: what the hubs publish there."""

    def __init__(self, server, table_id):
        self.server, self.table_id, self.messages = server, table_id, []

    async def __aenter__(self):
        import redis.asyncio

        self.client = redis.asyncio.Redis.from_url(self.server.url())
        self.pubsub = self.client.pubsub()
        await self.pubsub.subscribe(table_channel(self.table_id, self.server.url(), "hubtest"))
        self.task = asyncio.ensure_future(self._listen())
        return self

    async def _listen(self):
        while True:
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is not None:
                self.messages.append(json.loads(message["data"]))

    def announced(self):
        return [m["version"] for m in self.messages if m["type"] == "table.changed"]

    async def __aexit__(self, *exc):
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.pubsub.aclose()
        await self.client.aclose()


async def until(condition, what, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        await settle(0.05)


async def test_a_process_alone_at_a_table_publishes_nothing_for_it(redis_server):
    here = redis_server.hub()
    screen = Screen()
    async with Observer(redis_server, 1) as observer:
        await here.join(1, screen)
        await until(lambda: here.alone(1), "its own hello never came back")
        await here.announce(1, {"type": "table.changed", "version": 2})
        await here.announce(1, {"type": "table.changed", "version": 3})
        await settle()
        assert versions(screen) == [2, 3]  # its own sockets are told at once
        assert observer.announced() == []
        assert [m["type"] for m in observer.messages] == ["hub.hello"]
    await close(here)


async def test_a_process_that_comes_to_the_table_hears_what_was_not_published(redis_server):
    here, there = redis_server.hub(), redis_server.hub()
    mine, theirs = Screen(), Screen()
    await here.join(1, mine)
    await until(lambda: here.alone(1), "its own hello never came back")
    await here.announce(1, {"type": "table.changed", "version": 2})  # not published

    await there.join(1, theirs)
    # Met: the last version announced here reaches the newcomer's screens.
    await until(lambda: versions(theirs) == [2], "the newcomer never heard version 2")
    await until(lambda: there.others.get(1) and here.others.get(1), "they never met")
    assert not here.alone(1) and not there.alone(1)
    await here.announce(1, {"type": "table.changed", "version": 3})
    await there.announce(1, {"type": "table.changed", "version": 4})
    # Each once, in whatever order they cross (a screen ignores what it has passed).
    await until(lambda: sorted(versions(theirs)) == [2, 3, 4], "an announcement was lost")
    await until(lambda: sorted(versions(mine)) == [2, 3, 4], "an announcement was lost")
    await settle()
    assert sorted(versions(theirs)) == [2, 3, 4] and sorted(versions(mine)) == [2, 3, 4]

    # The other process leaves: alone again.
    await there.leave(1, theirs)
    await until(lambda: here.alone(1), "the bye was never heard")
    await close(here, there)


async def test_after_a_redis_restart_every_announcement_is_published_again(redis_server):
    here = redis_server.hub()
    screen = Screen()
    await here.join(4, screen)
    await until(lambda: here.alone(4), "its own hello never came back")
    redis_server.kill()
    await until(lambda: not here.alone(4), "the hub did not notice the loss")
    redis_server.start()
    # Back, and said hello again: alone again, as far as it can tell.
    await until(lambda: here.alone(4), "no hello after the restart", seconds=15)
    await close(here)


async def test_after_a_redis_restart_a_process_publishes_again_on_a_new_connection(redis_server):
    here, there = redis_server.hub(), redis_server.hub()
    mine, theirs = Screen(), Screen()
    await here.join(1, mine)
    await there.join(1, theirs)
    await until(lambda: here.others.get(1) and there.others.get(1), "they never met")
    await here.announce(1, {"type": "table.changed", "version": 2})
    await until(lambda: versions(theirs) == [2], "the first announcement was lost")
    first = here.publisher

    redis_server.kill()
    # While Redis is away an announcement cannot be published: it fails (the consumer
    # logs it), and the sockets of this process are told all the same.
    await until(lambda: not first.open, "the publishing connection never saw the loss")
    with pytest.raises(OSError):
        await here.announce(1, {"type": "table.changed", "version": 3})
    await until(lambda: versions(mine) == [2, 3], "this process's own screen was not told")
    redis_server.start()
    await until(lambda: not here.lost and not there.lost, "no listener came back", seconds=15)
    await until(lambda: theirs.events[-1]["version"] is None, "no fresh read after the restart")

    # A new connection, opened by the next announcement.
    await here.announce(1, {"type": "table.changed", "version": 4})
    await until(lambda: versions(theirs)[-1] == 4, "nothing published after the restart")
    assert here.publisher is not first and here.publisher.open
    await close(here, there)
