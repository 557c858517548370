"""Helpers to talk to the real ASGI application over WebSocket, as a signed-in player."""

import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games import engine, services
from games.models import Game

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


@sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def connect(
    path: str, user=None, language: str = "en", session: str = ""
) -> WebsocketCommunicator:
    """A socket on `path`, signed in as `user` (a new session) or with the session key
    `session` (one the test keeps, to log out or expire)."""
    cookies = f"{settings.LANGUAGE_COOKIE_NAME}={language}"
    if user is not None:
        session = await session_cookie(user)
    if session:
        cookies += f"; {settings.SESSION_COOKIE_NAME}={session}"
    communicator = WebsocketCommunicator(
        application, path, headers=[ORIGIN, HOST, (b"cookie", cookies.encode())]
    )
    connected, code = await communicator.connect()
    communicator.connected, communicator.close_code = connected, code
    communicator.frames = []
    return communicator


async def watching(table, *users) -> list[WebsocketCommunicator]:
    """A socket on `table` for each of `users`, each past its first frame."""
    sockets = []
    for user in users:
        communicator = await connect(f"/ws/tables/{table.pk}/", user)
        await receive(communicator)
        sockets.append(communicator)
    return sockets


async def receive(communicator, timeout=3) -> str:
    frame = await communicator.receive_from(timeout=timeout)
    communicator.frames.append(frame)
    return frame


async def send(communicator, **message):
    await communicator.send_to(text_data=json.dumps(message))


async def drain(communicator, timeout=0.3) -> list[str]:
    """Every frame that arrives until the socket has been quiet for `timeout` seconds."""
    # receive_nothing() waits without cancelling the application, unlike a timed-out receive.
    frames = []
    while not await communicator.receive_nothing(timeout=timeout, interval=0.02):
        frames.append(await receive(communicator))
    return frames


def ack_version(frame: str) -> int | None:
    """The version an acknowledgement names, or None for any other frame."""
    match = re.search(r'id="ack"[^>]*data-version="(\d+)"', frame)
    return int(match.group(1)) if match else None


def error_code(frame: str) -> str | None:
    """The code of a refusal's notice, or None for any other frame."""
    match = re.search(r'id="notice"[^>]*data-code="([a-z_]+)"', frame)
    return match.group(1) if match else None


def live_version(frame: str) -> int | None:
    match = re.search(r'id="live" data-version="(\d*)"', frame)
    return int(match.group(1)) if match and match.group(1) else None


# Tables and players for socket tests, set up through the real services.
@sync_to_async
def setup_table(creator, others=(), bots=(), **kwargs):
    options = kwargs.pop("options", {"end": "rounds", "rounds": 1})
    seats = kwargs.pop("seats", 1 + len(others) + len(bots))
    table = services.table_create(user=creator, seats_count=seats, options=options, **kwargs)
    for user in others:
        services.seat_join(table_id=table.pk, user=user)
    for bot in bots:
        services.seat_add_bot(table_id=table.pk, user=creator, bot=bot)
    services.table_start(table_id=table.pk, user=creator)
    return table


@sync_to_async
def game_state(table):
    return engine.get("nimmt").load(Game.objects.get(table=table).state)


@sync_to_async
def make(make_player, name):
    return make_player(name)
