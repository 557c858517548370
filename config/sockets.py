"""The session of a WebSocket, as Channels' SessionMiddleware finds it, without wrapping
every frame sent.

Channels' SessionMiddleware hands the consumer a `send` that checks, for every message,
whether the session must be saved and a cookie set: only HTTP responses ever need it,
yet at 100 tables on two processes that check, through the session's lazy proxy, took
about 3 % of a server's CPU (docs/performance.md §16). Sockets read their session and
never change it, so this middleware only puts it in the scope (the session engine's
store for the session cookie, read from the database when first needed, by Channels'
AuthMiddleware at connect) and passes `send` through untouched.
"""

from importlib import import_module

from django.conf import settings


class SocketSessionMiddleware:
    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SocketSessionMiddleware is for WebSockets only")
        if "cookies" not in scope:
            raise ValueError("SocketSessionMiddleware must run inside CookieMiddleware")
        store = import_module(settings.SESSION_ENGINE).SessionStore
        session = store(scope["cookies"].get(settings.SESSION_COOKIE_NAME))
        return await self.inner({**scope, "session": session}, receive, send)


def socket_stack(inner):
    """Cookies, the session, the user: what AuthMiddlewareStack gives, for sockets."""
    from channels.auth import AuthMiddleware
    from channels.sessions import CookieMiddleware

    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
