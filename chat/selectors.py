"""The reads of the chat: what a reader sees of a room, and who they mute."""

from dataclasses import dataclass

from django.db.models import Q

from chat.models import ChatMessage, ChatMute, ChatPreference

# Messages a page shows when it loads.
RECENT = 50


@dataclass(frozen=True)
class Reader:
    """What one user has chosen not to see."""

    user_id: int
    muted: frozenset = frozenset()
    hide_spectators: bool = False

    def sees(self, message: ChatMessage) -> bool:
        if message.hidden:
            return False
        if message.sender_id == self.user_id:
            return True
        if message.sender_id in self.muted:
            return False
        return not (self.hide_spectators and message.from_spectator)


def chat_reader(user) -> Reader:
    muted = frozenset(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))
    hide = ChatPreference.objects.filter(user=user, hide_spectators=True).exists()
    return Reader(user_id=user.pk, muted=muted, hide_spectators=hide)


def chat_recent(*, user, table_id: int | None, reader: Reader | None = None) -> list[ChatMessage]:
    """The last RECENT messages of a room that `user` sees, the oldest first."""
    reader = reader or chat_reader(user)
    messages = ChatMessage.objects.filter(table_id=table_id, hidden=False)
    if reader.muted:
        messages = messages.exclude(sender_id__in=reader.muted)
    if reader.hide_spectators:
        messages = messages.filter(Q(from_spectator=False) | Q(sender_id=user.pk))
    latest = messages.select_related("sender").order_by("-id")[:RECENT]
    return list(reversed(latest))


def chat_message(message_id: int) -> ChatMessage | None:
    """A message as an announcement names it (with its sender, for rendering)."""
    return ChatMessage.objects.select_related("sender").filter(pk=message_id).first()


def muted_users(user) -> list:
    mutes = ChatMute.objects.filter(user=user).select_related("muted").order_by("created_at")
    return [mute.muted for mute in mutes]
