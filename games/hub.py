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
        self.listening: list[asyncio.Task] = []

    async def join(self, table_id: int, consumer) -> None:
        async with self.lock:
            members = self.sockets.setdefault(table_id, set())
            members.add(consumer)
            if len(members) == 1:
                try:
                    await self.layer.group_add(table_group(table_id), await self._channel())
                except BaseException:
                    del self.sockets[table_id]
                    if not self.sockets:
                        self._stop()
                    raise

    async def leave(self, table_id: int, consumer) -> None:
        async with self.lock:
            members = self.sockets.get(table_id)
            if members is None or consumer not in members:
                return
            members.discard(consumer)
            if not members:
                del self.sockets[table_id]
                try:
                    await self.layer.group_discard(table_group(table_id), self.channel)
                except Exception:
                    # The layer is away; the group forgets the channel at its expiry.
                    log.warning("table %s: could not leave its group", table_id)
            if not self.sockets:
                self._stop()

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
            self.listening = [
                self._spawn(self._listen(self.channel)),
                self._spawn(self._renew(self.channel)),
            ]
        return self.channel

    def _stop(self) -> None:
        """No socket of any table left in this process: stop listening (a new channel
        when one comes). Also what lets a test's event loop end with nothing pending."""
        self.channel = None
        for task in self.listening:
            task.cancel()
        self.listening = []

    async def _listen(self, channel):
        pause = 0.5
        lost = False
        while channel == self.channel:
            try:
                if lost:
                    await self._join_again(channel)
                    lost = False
                event = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning(
                    "the table listener lost the channel layer; joining again", exc_info=True
                )
                lost = True
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10.0)
                continue
            pause = 0.5
            if asyncio.current_task().cancelling() or channel != self.channel:
                # Stopped meanwhile (redis-py may swallow a cancellation that arrives
                # during its read): what this channel still brings is for nobody.
                return
            table_id = event.get("table")
            if event.get("origin") == self.origin or table_id is None:
                continue  # made here: delivered already
            self.deliver(table_id, event)

    async def _join_again(self, channel):
        """After the layer came back: every group again (raises while it cannot), then
        every socket renders afresh (announcements may have been lost meanwhile)."""
        for table_id in list(self.sockets):
            await self.layer.group_add(table_group(table_id), channel)
        for table_id in list(self.sockets):
            self.deliver(table_id, {"type": "table.changed", "table": table_id, "version": None})

    async def _renew(self, channel):
        while channel == self.channel:
            await asyncio.sleep(RENEW_SECONDS)
            for table_id in list(self.sockets):
                try:
                    await self.layer.group_add(table_group(table_id), channel)
                except Exception:
                    log.warning("table %s: could not renew its group", table_id)

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


def current() -> Hub:
    """This event loop's hub (one per server process; tests may run several loops)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub(get_channel_layer())
    return hub
