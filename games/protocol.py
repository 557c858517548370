"""Parsing of what a browser sends over a table's WebSocket (docs/protocol.md).

Everything from the wire is checked here before any service sees it: size, JSON, the
message type, the type, range and characters of every field. The engine then checks the
rules. Nothing a client sent is ever echoed back unless it passed these checks.
"""

import json
import re
import unicodedata
from dataclasses import dataclass

from django.utils.translation import gettext as _

from chat.canned import CANNED
from chat.models import MAX_LENGTH as MAX_CHAT_LENGTH

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
# Characters a chat line may not hold: control characters (a line is one line; NUL cannot
# be stored), lone surrogates (not text), private-use characters (nothing shows them).
UNPRINTABLE = {"Cc", "Cs", "Co"}


class ProtocolError(Exception):
    """`about`: "chat" for a refused chat message (answered in the chat, not the table)."""

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
    # A chat message: its text, or the key of a canned message (chat.canned).
    text: str = ""
    canned: str = ""


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


def _request_id(data) -> str:
    request_id = data.get("id", "")
    if (
        not isinstance(request_id, str)
        or len(request_id) > MAX_ID_LENGTH
        or not REQUEST_ID.fullmatch(request_id)
    ):
        raise ProtocolError("bad_field", _("id must be a short string of letters and digits."))
    return request_id


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
    if kind == "chat":
        try:
            return _chat(data)
        except ProtocolError as error:
            error.about = "chat"
            raise
    if not isinstance(kind, str) or (kind != "sync" and kind not in decisions):
        raise ProtocolError("unknown_type", _("Unknown message type."))
    request_id = _request_id(data)
    version = data.get("version")
    version = None if version in (None, "") else _whole_number(version, "version")
    if kind == "sync":
        return Message(type="sync", id=request_id)
    decision = {"type": kind}
    for field, allowed in decisions[kind].items():
        if field not in data:
            raise ProtocolError("bad_field", _("%(name)s is missing.") % {"name": field})
        decision[field] = _field(data[field], field, allowed)
    return Message(type=kind, decision=decision, id=request_id, version=version)


def _chat(data) -> Message:
    """A line of free text ("text") or a canned message ("canned"), never both."""
    request_id = _request_id(data)
    canned = data.get("canned")
    if canned not in (None, ""):
        if not isinstance(canned, str) or canned not in CANNED:
            raise ProtocolError("bad_field", _("Unknown canned message."))
        return Message(type="chat", id=request_id, canned=canned)
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_field", _("%(name)s is missing.") % {"name": "text"})
    text = text.strip()
    if not text:
        raise ProtocolError("bad_field", _("Write something first."))
    if len(text) > MAX_CHAT_LENGTH:
        message = _("A message has at most %(count)d characters.") % {"count": MAX_CHAT_LENGTH}
        raise ProtocolError("too_long", message)
    if any(unicodedata.category(char) in UNPRINTABLE for char in text):
        raise ProtocolError("bad_field", _("This message holds characters that cannot be shown."))
    return Message(type="chat", id=request_id, text=text)
