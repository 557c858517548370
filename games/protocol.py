"""Parsing of what a browser sends over a table's WebSocket (docs/protocol.md).

Everything from the wire is checked here before any service sees it: size, JSON, the
message type, the type of every field. The engine then checks the rules.
"""

import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

MAX_MESSAGE_BYTES = 64 * 1024
MAX_ID_LENGTH = 64

# Decision messages and the field each one carries (docs/engines.md).
DECISIONS = {"select": "card", "row": "row", "pick": "card"}


class ProtocolError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


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
        raise ProtocolError("bad_field", _("%(name)s must be a whole number.") % {"name": name})
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise ProtocolError("bad_field", _("%(name)s must be a whole number.") % {"name": name})


def parse_message(text_data, bytes_data) -> Message:
    if text_data is None:
        raise ProtocolError("not_text", _("Messages must be JSON text."))
    if len(text_data) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", _("This message is too big."))
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", _("This message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", _("A message must be a JSON object."))
    kind = data.get("type")
    request_id = data.get("id", "")
    if not isinstance(request_id, str) or len(request_id) > MAX_ID_LENGTH:
        raise ProtocolError("bad_field", _("id must be a short string."))
    version = data.get("version")
    version = None if version in (None, "") else _whole_number(version, "version")
    if kind == "sync":
        return Message(type="sync", id=request_id)
    if kind not in DECISIONS:
        raise ProtocolError("unknown_type", _("Unknown message type."))
    field = DECISIONS[kind]
    if field not in data:
        raise ProtocolError("bad_field", _("%(name)s is missing.") % {"name": field})
    value = _whole_number(data[field], field)
    return Message(type=kind, decision={"type": kind, field: value}, id=request_id, version=version)
