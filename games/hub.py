"""One listener per server process for the announcements of the tables it shows.

A table's sockets do not each join the table's group on the channel layer: the process
joins it once, with a channel of its own, while it has at least one socket of that table
open. An announcement made in this process ("table N is at version v") reaches its own
sockets of the table directly, without a round trip through Redis, and goes to the
group once for the other processes; what arrives from the group is handed to this
process's sockets of the table. Per announcement, Redis carries one message per process
instead of one per socket (docs/performance.md §11).

If the listener loses the channel layer (Redis restarted: its groups are gone), it joins
its groups again once it can, and every socket it serves renders its table afresh.
"""

import asyncio
import logging
import weakref

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# channels-redis forgets a group member after a day (group_expiry); the process renews
# its memberships well before that.
RENEW_SECONDS = 600


def table_group(table_id) -> str:
    return f"table.{table_id}"


class Hub:
    def __init__(self, layer):
        self.layer = layer
        self.sockets: dict[int, set] = {}
        self.channel: str | None = None
        self.origin = ""
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task] = set()

    async def join(self, table_id: int, consumer) -> None:
        async with self.lock:
            members = self.sockets.setdefault(table_id, set())
            members.add(consumer)
            if len(members) == 1:
                await self.layer.group_add(table_group(table_id), await self._channel())

    async def leave(self, table_id: int, consumer) -> None:
        async with self.lock:
            members = self.sockets.get(table_id)
            if members is None or consumer not in members:
                return
            members.discard(consumer)
            if not members:
                del self.sockets[table_id]
                await self.layer.group_discard(table_group(table_id), self.channel)

    async def announce(self, table_id: int, event: dict) -> None:
        """Tell every socket of the table, here at once and elsewhere through the layer."""
        event = {**event, "table": table_id, "origin": self.origin}
        self.deliver(table_id, event)
        await self.layer.group_send(table_group(table_id), event)

    def deliver(self, table_id: int, event: dict) -> None:
        members = self.sockets.get(table_id)
        if members:
            self._spawn(self._hand_over(list(members), event))

    async def _hand_over(self, members, event):
        for consumer in members:
            try:
                await consumer.table_changed(event)
            except Exception:
                log.exception("table %s: a socket could not take an announcement", event["table"])

    async def _channel(self) -> str:
        if self.channel is None:
            # The default prefix: channels-redis receives every channel of a process that
            # has it through one queue and one lock; another prefix would wait its turn.
            self.channel = await self.layer.new_channel()
            self.origin = self.channel
            self._spawn(self._listen())
            self._spawn(self._renew())
        return self.channel

    async def _listen(self):
        pause = 0.5
        while True:
            try:
                event = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the table listener lost the channel layer; joining again")
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10.0)
                await self._join_again()
                continue
            pause = 0.5
            table_id = event.get("table")
            if event.get("origin") == self.origin or table_id is None:
                continue  # made here: delivered already
            self.deliver(table_id, event)

    async def _join_again(self):
        """After the layer came back: every group again, every socket renders afresh
        (announcements may have been lost meanwhile)."""
        for table_id in list(self.sockets):
            try:
                await self.layer.group_add(table_group(table_id), self.channel)
            except Exception:
                log.warning("table %s: could not join its group again yet", table_id)
                return
            self.deliver(table_id, {"type": "table.changed", "table": table_id, "version": None})

    async def _renew(self):
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            for table_id in list(self.sockets):
                try:
                    await self.layer.group_add(table_group(table_id), self.channel)
                except Exception:
                    log.warning("table %s: could not renew its group", table_id)

    def _spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


def current() -> Hub:
    """This event loop's hub (one per server process; tests may run several loops)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub(get_channel_layer())
    return hub
