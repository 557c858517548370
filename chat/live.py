"""A chat announcement names a message; the sockets of a server process read it once.

Every socket of a room hears "message M was posted" at about the same time: the first one
reads M from the database, the others of this process wait for that read or take what it
read during the next seconds. What a reader may see of it is each socket's own business.
"""

import asyncio
import time
import weakref
from collections import OrderedDict

from channels.db import database_sync_to_async

from chat import selectors

# Messages kept after their read, and for how long: enough for every socket of a process
# to take its announcement, not so long that a hidden message would be read stale.
KEEP = 256
KEEP_SECONDS = 10

_kept: "OrderedDict[int, tuple[float, object]]" = OrderedDict()
_reads: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict]" = weakref.WeakKeyDictionary()


async def posted(message_id: int):
    """The message announced (None if it is gone), read once for the sockets of a process."""
    kept = _kept.get(message_id)
    if kept is not None and time.monotonic() - kept[0] < KEEP_SECONDS:
        return kept[1]
    reads = _reads.setdefault(asyncio.get_running_loop(), {})
    reading = reads.get(message_id)
    if reading is None:
        read = database_sync_to_async(selectors.chat_message)(message_id)
        reading = reads[message_id] = asyncio.ensure_future(read)
        reading.add_done_callback(lambda done: _keep(reads, message_id, done))
    return await asyncio.shield(reading)


def _keep(reads: dict, message_id: int, done: asyncio.Future) -> None:
    if reads.get(message_id) is done:
        del reads[message_id]
    if done.cancelled() or done.exception() is not None:
        return
    _kept[message_id] = (time.monotonic(), done.result())
    while len(_kept) > KEEP:
        _kept.popitem(last=False)


def forget(message_id: int) -> None:
    """The message changed (hidden): read it afresh next time."""
    _kept.pop(message_id, None)
