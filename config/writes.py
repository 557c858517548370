"""Frames written to a socket when they are sent, not at the event loop's next poll.

Twisted's TCP transport only queues what it is given: `write` appends to a buffer and
registers the socket as a writer with the event loop; the loop's next poll finds it
writable and `doWrite` sends the buffer, then unregisters the writer. Every WebSocket
frame daphne sends thus costs two `epoll_ctl` calls and a callback of the reactor's on
top of the `send`, about 5 % of a process's CPU under load, and leaves only after
every callback already due in that turn of the loop (an acknowledgement waited for the
renders of other tables; docs/performance.md §17).

`install()` gives Twisted's TCP connections a `write` that sends at once when nothing is
waiting before it: the kernel takes the frame, or part of it. What it does not take,
and anything written while something still waits, goes to Twisted's own buffer and
path, in order. Nothing changes for TLS (Twisted's TLS layer writes through its own
protocol), for a connection that is closing or closed, or when `send` fails: the data is
then queued as before and `doWrite` meets the same error and closes the connection the
way it always does.
"""

import logging
from errno import EAGAIN, EINTR, ENOBUFS, EWOULDBLOCK

log = logging.getLogger(__name__)

_TRY_AGAIN = {EAGAIN, EWOULDBLOCK, ENOBUFS, EINTR}
# What the replacement reads of Twisted's connections (twisted.internet.abstract).
_EXPECTED = (
    "TLS",
    "connected",
    "disconnecting",
    "_writeDisconnected",
    "_writeDisconnecting",
    "dataBuffer",
    "offset",
)
_installed: dict = {}


def install() -> bool:
    """Replace `twisted.internet.tcp.Connection.write` (once per process). Whether it is
    in place: a Twisted whose connections no longer look as this module expects keeps
    its own `write`, with a warning."""
    from twisted.internet import tcp

    if "write" in _installed:
        return True
    queued_write = tcp.Connection.write
    if getattr(queued_write, "__qualname__", "") != "ConnectionMixin.write" or not all(
        hasattr(tcp.Connection, name) for name in _EXPECTED
    ):
        log.warning("Twisted's TCP connections are not as config/writes.py expects: left as is")
        return False

    def write(self, data):
        if (
            not self.TLS
            and self.connected
            and not self.disconnecting
            and not self._writeDisconnected
            and not self._writeDisconnecting
            and not self._tempDataLen
            and self.offset == len(self.dataBuffer)
            and type(data) is bytes
            and data
        ):
            try:
                sent = self.socket.send(data)
            except OSError as error:
                if error.errno not in _TRY_AGAIN:
                    # Queued: doWrite meets the error and loses the connection as usual.
                    return queued_write(self, data)
                sent = 0
            if sent == len(data):
                return None
            data = data[sent:]
        return queued_write(self, data)

    write.__doc__ = queued_write.__doc__
    tcp.Connection.write = write
    _installed["write"] = queued_write
    return True


def uninstall() -> bool:
    """Put Twisted's own `write` back (tests); whether it had been replaced."""
    from twisted.internet import tcp

    queued_write = _installed.pop("write", None)
    if queued_write is not None:
        tcp.Connection.write = queued_write
    return queued_write is not None
