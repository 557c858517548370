import asyncio
import secrets
import weakref
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache

from games import kinds


def home(request):
    return render(request, "home.html")


# The rules page of each language: a full text written for it, not a translated template.
# Each game's section is its own text too: `rules_<language>.html` among its templates.
RULES_TEMPLATES = {"fr": "help/rules_fr.html", "en": "help/rules_en.html"}


@dataclass(frozen=True)
class GameRules:
    name: str
    label: str
    rules: str


def _games_rules(language: str) -> list[GameRules]:
    """The games whose app writes its rules in `language`, in the lobby's order."""
    games = []
    for kind in kinds.registered():
        template = kind.template(f"rules_{language}.html")
        try:
            get_template(template)
        except TemplateDoesNotExist:
            continue
        games.append(GameRules(kind.name, str(kind.label), template))
    return games


def rules(request):
    language = (get_language() or "fr").split("-")[0]
    if language not in RULES_TEMPLATES:
        language = "fr"
    context = {"games": _games_rules(language)}
    return render(request, RULES_TEMPLATES[language], context)


def favicon(request):
    # Browsers ask /favicon.ico on pages that link no icon (the admin's, a raw error page).
    # Temporary: the icon's static URL changes with its content under the manifest storage.
    return HttpResponseRedirect(static("favicon.svg"))


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False


# One channel of its own per event loop for the health check: with Redis pub/sub a
# channel is a subscription, which a channel per request would pile up. Not one of the
# process's own channels (`new_channel`, with "!"): channels-redis receives those
# through one lock, which a socket's receive loop holds for up to 5 s while its channel
# is quiet, so the check timed out beside idle sockets. A plain channel is read directly.
_health_channels: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, str]" = (
    weakref.WeakKeyDictionary()
)


async def _layer_round_trip() -> bool:
    # A round trip through the layer proves Redis (or the in-memory layer) carries messages.
    layer = get_channel_layer()
    loop = asyncio.get_running_loop()
    channel = _health_channels.get(loop)
    if channel is None:
        channel = _health_channels[loop] = f"healthz.{secrets.token_hex(8)}"
    await asyncio.wait_for(layer.send(channel, {"type": "healthz.ping"}), timeout=2)
    return await asyncio.wait_for(layer.receive(channel), timeout=2) == {"type": "healthz.ping"}


def _channel_layer_ok() -> bool:
    try:
        return async_to_sync(_layer_round_trip)()
    except Exception:
        return False


@never_cache
def healthz(request):
    checks = {"database": _database_ok(), "channel_layer": _channel_layer_ok()}
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
