"""The chat of a table's socket and of the lobby's (games.sockets, registered in chat.apps).

A socket joining its room reads what its reader chose not to see (`read`, in the one
database hop of its connect; again whenever they change it). A message it sends is stored
by chat.services and announced to the room by its id; every socket of the room reads it
once per process (chat.live) and sends it to its reader, in the reader's language, if the
reader sees it.
"""

import weakref
from dataclasses import dataclass

from channels.db import database_sync_to_async

from chat import live, rendering, selectors, services
from chat.protocol import ChatLine
from games.services import ServiceError
from games.sockets import Room


@dataclass
class Listener:
    """A socket in a room: which room's chat it shows, and what its reader sees of it."""

    table_id: int | None
    reader: selectors.Reader


# The sockets of this process that are in a room; a socket of no room (a TV) is not here.
_listeners: "weakref.WeakKeyDictionary[object, Listener]" = weakref.WeakKeyDictionary()


def read(user, room: Room) -> selectors.Reader:
    return selectors.chat_reader(user)


async def join(socket, room: Room, reader: selectors.Reader) -> None:
    _listeners[socket] = Listener(table_id=room.table_id, reader=reader)


async def leave(socket, room: Room) -> None:
    _listeners.pop(socket, None)


async def receive(socket, message: ChatLine) -> None:
    """Store a message; every socket of the room hears of it, this one too."""
    try:
        await database_sync_to_async(services.chat_post)(
            user=socket.user,
            table_id=_listeners[socket].table_id,
            text=message.text,
            canned=message.canned,
            client_id=message.id,
        )
    except ServiceError as error:
        socket.log_refusal("chat message", error.code)
        await notice(socket, error.code, error.message, message.id)
        return
    await notice(socket, "", "", message.id)  # a refusal shown before is past


async def notice(socket, code: str, text: str, request_id: str) -> None:
    """The answer to the reader's own chat message (`code` empty: taken)."""
    frame = rendering.notice_frame(code, text, request_id or "", socket.language)
    await socket.send(text_data=frame)


async def posted(socket, event) -> None:
    listener = _listeners.get(socket)
    if listener is None:
        return
    message = await live.posted(event["message"])
    if message is None or message.table_id != listener.table_id:
        return
    if not listener.reader.sees(message):
        return
    await socket.send(text_data=rendering.posted_frame(message, socket.user.pk, socket.language))


async def hidden(socket, event) -> None:
    live.forget(event["message"])
    if socket in _listeners:
        await socket.send(text_data=rendering.hidden_frame(event["message"]))


async def preferences(socket, event) -> None:
    """The reader muted, unmuted or hid spectators (chat.services): read their choices again."""
    listener = _listeners.get(socket)
    if listener is not None:
        listener.reader = await database_sync_to_async(selectors.chat_reader)(socket.user)


# The announcements of chat.services, as they reach a socket's groups.
EVENTS = {"chat.posted": posted, "chat.hidden": hidden, "chat.preferences": preferences}
