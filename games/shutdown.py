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
# "Try again later": a socket that could not join its channel-layer groups (Redis down,
# games.consumers.HtmlConsumer). Sent like 1012, by the same override below.
TRY_AGAIN_LATER = 1013
# What a socket is closed with if daphne cannot send 1012 ("going away").
GOING_AWAY = 1001
_open_sockets: "weakref.WeakSet" = weakref.WeakSet()
_installed = False


def register(consumer) -> None:
    _open_sockets.add(consumer)


def unregister(consumer) -> None:
    _open_sockets.discard(consumer)


def open_table_sockets() -> set[tuple[int, int]]:
    """(table id, user id) of this process's open table sockets: who is at which table
    (games.services.presence)."""
    return {
        (consumer.table_id, consumer.user.pk)
        for consumer in list(_open_sockets)
        if getattr(consumer, "table_id", None) is not None
    }


async def close_all(code: int = SERVICE_RESTART) -> int:
    consumers = list(_open_sockets)
    for consumer in consumers:
        try:
            await consumer.close(code=code)
        except Exception:
            log.exception("could not close a socket on shutdown")
    return len(consumers)


def _let_daphne_send_service_restart() -> bool:
    """1012 is the IANA close code for "service restart", but autobahn's `sendClose` lets
    an application use only 1000 and 3000-4999; send that one close frame directly.

    The one override of a library in this project: daphne's `WebSocketProtocol.serverClose`
    (daphne's version range is pinned in pyproject.toml). Checked at start-up: a daphne
    without what it replaces keeps its own, and sockets are closed with 1001 instead.
    Returns whether the override is in place."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # not under daphne
        return False
    original = getattr(WebSocketProtocol, "serverClose", None)
    if getattr(original, "sends_service_restart", False):
        return True  # in place already
    if not callable(original) or not callable(getattr(WebSocketProtocol, "sendCloseFrame", None)):
        log.warning(
            "daphne's WebSocketProtocol has no serverClose/sendCloseFrame: SIGTERM closes"
            " sockets with %d instead of %d (games/shutdown.py; check daphne's version"
            " against pyproject.toml)",
            GOING_AWAY,
            SERVICE_RESTART,
        )
        return False

    def server_close(self, code=None):
        if code in (SERVICE_RESTART, TRY_AGAIN_LATER):
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code)

    server_close.sends_service_restart = True
    WebSocketProtocol.serverClose = server_close
    return True


def install(loop: asyncio.AbstractEventLoop) -> None:
    """Replace the SIGTERM handler of this (daphne) process. Call from its event loop."""
    global _installed
    if _installed:
        return
    _installed = True
    code = SERVICE_RESTART if _let_daphne_send_service_restart() else GOING_AWAY

    async def stop():
        closed = await close_all(code)
        log.info("SIGTERM: closed %d sockets with %d", closed, code)
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
