"""ASGI entry point: HTTP through Django, WebSockets through Channels, both under daphne."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.collector import settle  # noqa: E402
from config.origins import SameOriginValidator  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from games import clock  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

settle()
# The deadline clock and the graceful stop start with the server process, not with its
# first request: a restarted server must time out games nobody is looking at.
clock.start_with_server()
