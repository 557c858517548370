"""Checking a chat message from a socket before any service sees it (docs/protocol.md, "Chat").

games.protocol hands this parser the messages of type "chat" (registered in chat.apps);
a refusal is raised as games' ProtocolError, and answered in the chat.
"""

import unicodedata
from dataclasses import dataclass

from django.utils.translation import gettext as _

from chat.canned import CANNED
from chat.models import MAX_LENGTH
from games.protocol import ProtocolError, request_id

# Characters a chat line may not hold: control characters (a line is one line; NUL cannot
# be stored), lone surrogates (not text), private-use characters (nothing shows them).
UNPRINTABLE = {"Cc", "Cs", "Co"}


@dataclass(frozen=True)
class ChatLine:
    """A chat message as sent: its text, or the key of a canned message (chat.canned)."""

    id: str = ""
    text: str = ""
    canned: str = ""
    type: str = "chat"


def parse_chat(data: dict) -> ChatLine:
    """A line of free text ("text") or a canned message ("canned"), never both."""
    message_id = request_id(data)
    canned = data.get("canned")
    if canned not in (None, ""):
        if not isinstance(canned, str) or canned not in CANNED:
            raise ProtocolError("bad_field", _("Unknown canned message."))
        return ChatLine(id=message_id, canned=canned)
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_field", _("%(name)s is missing.") % {"name": "text"})
    text = text.strip()
    if not text:
        raise ProtocolError("bad_field", _("Write something first."))
    if len(text) > MAX_LENGTH:
        message = _("A message has at most %(count)d characters.") % {"count": MAX_LENGTH}
        raise ProtocolError("too_long", message)
    if any(unicodedata.category(char) in UNPRINTABLE for char in text):
        raise ProtocolError("bad_field", _("This message holds characters that cannot be shown."))
    return ChatLine(id=message_id, text=text)
