"""What other apps add to the sockets of a room: a table's socket, or the lobby's.

games names no such app. An app registers its part in its AppConfig.ready() (the chat
does, chat/apps.py):

- `register_message(type, parse=, receive=, refuse=)`: a message type the game protocol
  does not have. games.protocol hands a message of that type to `parse(data)` (the JSON
  object received), which returns the checked message, with its `type` and `id`, or raises
  games.protocol.ProtocolError. A refusal keeps the type in its `about`, and the socket
  answers it with `refuse(socket, code, text, request_id)`, in that app's place on the page
  rather than the table's `#notice`; an accepted message goes to `receive(socket, message)`.
- `register_event(type, handler)`: a channel-layer event of that type that reaches one of
  a socket's groups goes to `handler(socket, event)` (games.consumers.HtmlConsumer.dispatch).
  Every socket hears the events of its groups, in a room or not (a club room's TV): a
  handler ignores the sockets it knows nothing of.
- `register_room(join=, leave=, read=None)`: `join(socket, room)` is awaited once a socket
  is let into its room, before it listens to the room's groups; `leave(socket, room)` when
  it closes. With `read`, what the app needs from the database to join: `read(user, room)`
  runs (sync) in the one database hop of the socket's connect, with its access check
  (games.consumers), and `join(socket, room, answer)` is then given its answer; `join`
  itself then does no database work.

A socket offers them `user`, `language`, `room`, `send(text_data=...)` and
`log_refusal(what, code)`.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Room:
    """Where a socket is: a table, or the lobby (`table_id` None)."""

    table_id: int | None = None

    def __str__(self) -> str:
        return "lobby" if self.table_id is None else f"table {self.table_id}"


@dataclass(frozen=True)
class MessageType:
    parse: Callable[[dict], Any]
    receive: Callable[[Any, Any], Awaitable[None]]
    refuse: Callable[[Any, str, str, str], Awaitable[None]]


_messages: dict[str, MessageType] = {}
_events: dict[str, Callable[[Any, dict], Awaitable[None]]] = {}
_rooms: list[tuple[Callable, Callable, Callable | None]] = []


def register_message(type: str, *, parse, receive, refuse) -> None:
    _messages[type] = MessageType(parse=parse, receive=receive, refuse=refuse)


def register_event(type: str, handler) -> None:
    _events[type] = handler


def register_room(*, join, leave, read=None) -> None:
    if (join, leave, read) not in _rooms:  # an app set up twice (tests) registers once
        _rooms.append((join, leave, read))


# --- what games' protocol and consumers ask ------------------------------------------------


def message_parser(type) -> Callable[[dict], Any] | None:
    """The parser of another app's message type, None for any other type."""
    registered = _messages.get(type) if isinstance(type, str) else None
    return registered.parse if registered else None


def takes(type: str) -> bool:
    """Whether `type` is another app's message."""
    return type in _messages


async def receive(socket, message) -> None:
    await _messages[message.type].receive(socket, message)


async def refuse(socket, about: str, code: str, text: str, request_id: str = "") -> None:
    await _messages[about].refuse(socket, code, text, request_id)


def event_handler(type: str):
    return _events.get(type)


def read_room(user, room: Room) -> list:
    """What the apps' `read` hooks answer for `user` entering `room` (None for an app
    without one): sync, called in the thread of the socket's connect."""
    return [None if read is None else read(user, room) for _joined, _left, read in _rooms]


async def join(socket, room: Room, answers: list) -> None:
    """Let the socket into the apps' room, with what `read_room` answered for it."""
    for (joined, _left, read), answer in zip(_rooms, answers, strict=True):
        await (joined(socket, room) if read is None else joined(socket, room, answer))


async def leave(socket, room: Room) -> None:
    for _joined, left, _read in _rooms:
        await left(socket, room)
