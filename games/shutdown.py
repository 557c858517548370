"""A graceful stop: on SIGTERM every open socket is closed with 1012 ("service restart").

Browsers (htmx's ws extension) and the load generator reconnect on that code, to this
process once it is back or to another one behind the balancer. Daphne alone would drop the
connections without a close frame.
"""

import asyncio
import logging
import signal
import weakref

log = logging.getLogger(__name__)

SERVICE_RESTART = 1012
_open_sockets: "weakref.WeakSet" = weakref.WeakSet()
_installed = False


def register(consumer) -> None:
    _open_sockets.add(consumer)


def unregister(consumer) -> None:
    _open_sockets.discard(consumer)


async def close_all(code: int = SERVICE_RESTART) -> int:
    consumers = list(_open_sockets)
    for consumer in consumers:
        try:
            await consumer.close(code=code)
        except Exception:
            log.exception("could not close a socket on shutdown")
    return len(consumers)


def _let_daphne_send_service_restart() -> None:
    """1012 is the IANA close code for "service restart", but autobahn's `sendClose` lets
    an application use only 1000 and 3000-4999; send that one close frame directly."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # not under daphne
        return
    original = WebSocketProtocol.serverClose

    def server_close(self, code=None):
        if code == SERVICE_RESTART:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code)

    WebSocketProtocol.serverClose = server_close


def install(loop: asyncio.AbstractEventLoop) -> None:
    """Replace the SIGTERM handler of this (daphne) process. Call from its event loop."""
    global _installed
    if _installed:
        return
    _installed = True
    _let_daphne_send_service_restart()

    async def stop():
        closed = await close_all()
        log.info("SIGTERM: closed %d sockets with %d", closed, SERVICE_RESTART)
        await asyncio.sleep(0.3)  # let the close frames leave
        try:
            from twisted.internet import reactor

            reactor.stop()
        except Exception:
            raise SystemExit(0) from None

    def on_sigterm(signum, frame):
        loop.call_soon_threadsafe(lambda: loop.create_task(stop()))

    try:
        signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:
        _installed = False  # not the main thread (tests): nothing to install
