"""Reading chat frames (templates/chat/) in tests."""

import re

from asgiref.sync import sync_to_async

from tests.games import ws

CHAT_LINE = re.compile(r'<li id="chat-message-(\d+)"[^>]*data-sender="(\d+)"[^>]*>(.*?)</li>', re.S)
CHAT_TEXT = re.compile(r'<bdi class="chat-text[^"]*">(.*?)</bdi>', re.S)
CHAT_NOTICE = re.compile(
    r'<div id="chat-notice"[^>]*data-code="([a-z_]*)"[^>]*data-request="([^"]*)"'
)


def chat_texts(frames) -> list[str]:
    """The texts of the chat lines in `frames`, as they are written in the HTML."""
    texts = []
    for frame in frames:
        for _id, _sender, body in CHAT_LINE.findall(frame):
            texts += CHAT_TEXT.findall(body)
    return texts


def notice_code(frames) -> str | None:
    """The code of the last chat notice of `frames` ("" for a message taken)."""
    codes = [match.group(1) for frame in frames for match in CHAT_NOTICE.finditer(frame)]
    return codes[-1] if codes else None


async def say(socket, **message):
    await ws.send(socket, type="chat", **message)


@sync_to_async
def stored_texts(**filters) -> list[str]:
    from chat.models import ChatMessage

    return [m.shown_text for m in ChatMessage.objects.filter(**filters).order_by("id")]
