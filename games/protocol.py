"""Parsing of what a browser sends over a table's WebSocket (docs/protocol.md).

Everything from the wire is checked here before any service sees it: size, JSON, the
message type, the type, range and characters of every field. The engine then checks the
rules. Nothing a client sent is ever echoed back unless it passed these checks. A message
type that another app adds to the sockets (games.sockets: the chat) is checked by that
app's parser, with the id check below.
"""

import json
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import sockets

MAX_MESSAGE_BYTES = 64 * 1024
MAX_ID_LENGTH = 64
# A request id is the browser's own label for a decision (e.g. "v12s33"): plain ASCII
# letters, digits and a few separators, so that it can be stored, compared and echoed
# in an HTML attribute without surprises (no NUL, no surrogate, no quote).
REQUEST_ID = re.compile(r"[A-Za-z0-9_.:-]*")
# Card numbers, row numbers and versions all fit well within 32 bits; anything larger is
# not a value any game uses, and must not reach a database column.
LARGEST_NUMBER = 2**31 - 1

# A decision's field is what its game declares (its engine's DECISIONS): a whole number, a
# short name (a card or a special of some games: "6-oros", "stop"), null, or a short list
# of numbers and names (at most two levels deep).
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_LIST = 32


class ProtocolError(Exception):
    """`about`: the type of another app's message (games.sockets) that is refused, which
    that app answers in its own place on the page; empty for the table's own messages."""

    def __init__(self, code: str, message: str, about: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.about = about


@dataclass(frozen=True)
class Message:
    type: str
    decision: dict | None = None
    id: str = ""
    version: int | None = None


def _whole_number(value, name):
    # JSON true/false are ints to Python: they are not card numbers. htmx sends form values
    # as strings, so a string of digits is accepted too.
    if isinstance(value, bool):
        raise _not_a_number(name)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        value = int(value)
    if isinstance(value, int) and -LARGEST_NUMBER <= value <= LARGEST_NUMBER:
        return value
    raise _not_a_number(name)


def _not_a_number(name):
    return ProtocolError("bad_field", _("%(name)s must be a whole number.") % {"name": name})


def request_id(data) -> str:
    """The message's `id` (docs/protocol.md), "" when it has none."""
    value = data.get("id", "")
    if not isinstance(value, str) or len(value) > MAX_ID_LENGTH or not REQUEST_ID.fullmatch(value):
        raise ProtocolError("bad_field", _("id must be a short string of letters and digits."))
    return value


def _field(value, name, allowed):
    """`value` if it is of a type `allowed` (int, str, list, None or a union of them)."""
    if value is None and isinstance(None, allowed):
        return None
    if isinstance(value, list) and isinstance(value, allowed):
        return _list(value, name, depth=1)
    if isinstance(value, str) and isinstance(value, allowed) and not value.isdigit():
        return _name(value, name)
    if isinstance(0, allowed):
        return _whole_number(value, name)
    raise ProtocolError("bad_field", _("%(name)s is not allowed here.") % {"name": name})


def _list(value, name, depth):
    if len(value) > MAX_LIST:
        raise ProtocolError("bad_field", _("%(name)s is too long.") % {"name": name})
    items = []
    for item in value:
        if isinstance(item, list) and depth < 2:
            items.append(_list(item, name, depth + 1))
        elif isinstance(item, str) and not item.isdigit():
            items.append(_name(item, name))
        else:
            items.append(_whole_number(item, name))
    return items


def _name(value, name):
    if not TOKEN.fullmatch(value):
        raise ProtocolError("bad_field", _("%(name)s is not a valid name.") % {"name": name})
    return value


def parse_message(text_data, bytes_data, decisions=None) -> Message:
    """Check a message from the wire. `decisions`: the decisions of the table's game and
    their fields (its engine's DECISIONS, docs/engines.md); none in the lobby."""
    decisions = decisions or {}
    if text_data is None:
        raise ProtocolError("not_text", _("Messages must be JSON text."))
    if len(text_data) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", _("This message is too big."))
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):
        # ValueError covers integers too long to read (Python's digit limit) as well.
        raise ProtocolError("bad_json", _("This message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", _("A message must be a JSON object."))
    kind = data.get("type")
    parse_other = sockets.message_parser(kind)
    if parse_other is not None:
        try:
            return parse_other(data)
        except ProtocolError as error:
            error.about = kind
            raise
    if not isinstance(kind, str) or (kind != "sync" and kind not in decisions):
        raise ProtocolError("unknown_type", _("Unknown message type."))
    message_id = request_id(data)
    version = data.get("version")
    version = None if version in (None, "") else _whole_number(version, "version")
    if kind == "sync":
        return Message(type="sync", id=message_id)
    decision = {"type": kind}
    for field, allowed in decisions[kind].items():
        if field not in data:
            raise ProtocolError("bad_field", _("%(name)s is missing.") % {"name": field})
        decision[field] = _field(data[field], field, allowed)
    return Message(type=kind, decision=decision, id=message_id, version=version)
