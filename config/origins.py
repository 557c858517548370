"""Which pages may open this site's WebSockets: its own, by scheme, host and port.

Browsers send the page's `Origin` with a WebSocket handshake but apply no same-origin rule
to sockets themselves, so the server checks it, as Django's CSRF check does for forms: the
origin must be this very site (the socket's own scheme, as http/https, and its `Host`,
which must be one of `ALLOWED_HOSTS`) or one of `CSRF_TRUSTED_ORIGINS`. Anything else is
refused at the handshake (HTTP 403), before any consumer runs.
"""

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def page_scheme(scope) -> str:
    if scope.get("scheme") == "wss":
        return "https"
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        # Django names the header as in request.META: HTTP_X_FORWARDED_PROTO.
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        forwarded = _header(scope, name) or ""
        if forwarded.split(",")[0].strip() == secure_value:
            return "https"
    return "http"


def allowed_origins(scope) -> set[str]:
    origins = {origin.lower() for origin in settings.CSRF_TRUSTED_ORIGINS}
    host = (_header(scope, b"host") or "").lower()
    domain, _port = split_domain_port(host)
    if domain and validate_host(domain, settings.ALLOWED_HOSTS):
        origins.add(f"{page_scheme(scope)}://{host}")
    return origins


class SameOriginValidator:
    """ASGI middleware for WebSockets: only this site's own pages get through."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        origin = (_header(scope, b"origin") or "").lower()
        if origin and origin in allowed_origins(scope):
            return await self.app(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
