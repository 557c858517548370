"""The chat's HTML: the panel of a page, and the frames a socket sends its reader.

Every text a user wrote goes through Django's autoescaping (templates/chat/), never
through mark_safe.
"""

from django.template.loader import render_to_string
from django.utils import translation

from chat import selectors
from chat.canned import CANNED
from chat.models import MAX_LENGTH


def panel_context(user, table_id: int | None) -> dict:
    """What templates/chat/panel.html and its parts show `user` of a room."""
    reader = selectors.chat_reader(user)
    return {
        "table_id": table_id,
        "user_id": user.pk,
        "reader": reader,
        "messages": selectors.chat_recent(user=user, table_id=table_id, reader=reader),
        "muted": selectors.muted_users(user),
        "canned": list(CANNED.items()),
        "max_length": MAX_LENGTH,
    }


def refreshed_panel(request, table_id: int | None, code: str = "", message: str = "") -> str:
    """The log, the settings and the notice of a room again, each swapped by its id: what
    an HTTP action (mute, unmute, spectators) answers."""
    context = {"chat": panel_context(request.user, table_id), "code": code, "message": message}
    return render_to_string("chat/refresh.html", context, request)


def notice(code: str = "", message: str = "", request_id: str = "", oob: bool = False) -> str:
    context = {"code": code, "message": message, "request_id": request_id, "oob": oob}
    return render_to_string("chat/notice.html", context)


# --- frames of a socket (rendered on the event loop: no database here) -------------------


def posted_frame(message, reader_id: int, language: str) -> str:
    """A message appended to the reader's `#chat-log`; its sender read along with it."""
    with translation.override(language):
        context = {"message": message, "reader_id": reader_id}
        return render_to_string("chat/posted.html", context)


def hidden_frame(message_id: int) -> str:
    """A message an admin hid: its line on open screens becomes an empty hidden one."""
    return render_to_string("chat/hidden.html", {"message_id": message_id})


def notice_frame(code: str, message: str, request_id: str, language: str) -> str:
    with translation.override(language):
        return notice(code, message, request_id)
