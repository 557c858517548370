"""The one door through which the chat changes: write, mute, report, hide, suspend.

Like games.services: each write runs in a transaction and is announced on commit, and an
announcement carries nothing but an id (docs/protocol.md, "Chat"): each socket reads the
message from the database and renders it for its own reader.
"""

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from chat.canned import CANNED
from chat.limits import chat_allows
from chat.models import (
    MAX_LENGTH,
    ChatMessage,
    ChatMute,
    ChatPreference,
    ChatReport,
    ChatSuspension,
)
from games.announce import announce_on_commit as _announce_on_commit
from games.models import Seat
from games.services import LOBBY_GROUP, ServiceError, table_group


def room_group(table_id: int | None) -> str:
    """The channel-layer group of a chat's sockets: its table's, or the lobby's."""
    return LOBBY_GROUP if table_id is None else table_group(table_id)


def user_group(user_id: int) -> str:
    """Every socket of one user (games.consumers joins it; games.signals names it too)."""
    return f"user.{user_id}"


# --- writing ------------------------------------------------------------------------------


def chat_suspension(user) -> ChatSuspension | None:
    """The suspension that keeps `user` from writing now, if any (the longest)."""
    active = ChatSuspension.objects.filter(user=user).active()
    return active.order_by(F("until").desc(nulls_first=True)).first()


def _refuse_if_suspended(user) -> None:
    suspension = chat_suspension(user)
    if suspension is None:
        return
    if suspension.until is None:
        message = _("You are suspended from the chat.")
    else:
        until = formats.date_format(timezone.localtime(suspension.until), "SHORT_DATETIME_FORMAT")
        message = _("You are suspended from the chat until %(until)s.") % {"until": until}
    raise ServiceError("suspended", message)


def chat_post(
    *, user, table_id: int | None, text: str = "", canned: str = "", client_id: str = ""
) -> ChatMessage:
    """Store what `user` writes in a table's chat (`table_id` None: the lobby's) and announce
    its id to the room once committed.

    The caller has checked that the user may see the table (games.selectors.table_access)
    and parsed the message (chat.protocol). A message resent with a `client_id` already
    stored for this user is not stored again: the first one is returned.
    """
    if canned:
        if canned not in CANNED:
            raise ServiceError("bad_field", _("Unknown canned message."))
        text = ""
    else:
        text = text.strip()
        if not text:
            raise ServiceError("bad_field", _("Write something first."))
        if len(text) > MAX_LENGTH:
            raise ServiceError("too_long", _too_long())
    _refuse_if_suspended(user)
    if client_id:
        sent = ChatMessage.objects.filter(sender=user, client_id=client_id).first()
        if sent is not None:
            return sent
    if not chat_allows(user.pk):
        raise ServiceError("rate_limited", _("You are writing too fast: wait a moment."))
    from_spectator = (
        table_id is not None and not Seat.objects.filter(table_id=table_id, user=user).exists()
    )
    try:
        with transaction.atomic():
            message = ChatMessage.objects.create(
                table_id=table_id,
                sender=user,
                text=text,
                canned=canned,
                from_spectator=from_spectator,
                client_id=client_id,
            )
            _announce_on_commit(
                room_group(table_id), {"type": "chat.posted", "message": message.pk}
            )
    except IntegrityError:
        # The same id from another socket of this user, stored a moment ago.
        sent = ChatMessage.objects.filter(sender=user, client_id=client_id).first()
        if sent is None:
            raise
        return sent
    return message


def _too_long() -> str:
    return _("A message has at most %(count)d characters.") % {"count": MAX_LENGTH}


# --- what a reader chooses to see --------------------------------------------------------


def _preferences_changed(user) -> None:
    # The user's open sockets read their choices again (chat.sockets).
    _announce_on_commit(user_group(user.pk), {"type": "chat.preferences"})


def chat_mute(*, user, muted) -> None:
    if muted.pk == user.pk:
        raise ServiceError("bad_field", _("You cannot mute yourself."))
    with transaction.atomic():
        ChatMute.objects.get_or_create(user=user, muted=muted)
        _preferences_changed(user)


def chat_unmute(*, user, muted_id: int) -> None:
    with transaction.atomic():
        ChatMute.objects.filter(user=user, muted_id=muted_id).delete()
        _preferences_changed(user)


def chat_hide_spectators(*, user, hide: bool) -> None:
    with transaction.atomic():
        ChatPreference.objects.update_or_create(user=user, defaults={"hide_spectators": hide})
        _preferences_changed(user)


# --- moderation ---------------------------------------------------------------------------


def chat_report(*, user, message: ChatMessage) -> ChatReport:
    """`user` asks the admins to look at `message` (once; again is no news)."""
    if message.sender_id == user.pk:
        raise ServiceError("bad_field", _("You cannot report your own message."))
    report, _created = ChatReport.objects.get_or_create(message=message, reporter=user)
    return report


def chat_hide(*, messages, by, hidden: bool = True) -> int:
    """Hide (or show again) messages; open screens drop a hidden message at once."""
    with transaction.atomic():
        changed = list(messages.exclude(hidden=hidden).values_list("pk", "table_id"))
        ids = [pk for pk, _table in changed]
        if hidden:
            ChatMessage.objects.filter(pk__in=ids).update(
                hidden=True, hidden_by=by, hidden_at=timezone.now()
            )
            for pk, table_id in changed:
                _announce_on_commit(room_group(table_id), {"type": "chat.hidden", "message": pk})
        else:
            # Shown again from the next page load on.
            ChatMessage.objects.filter(pk__in=ids).update(
                hidden=False, hidden_by=None, hidden_at=None
            )
    return len(ids)


def chat_resolve(*, reports, by) -> int:
    return reports.filter(resolved_at__isnull=True).update(
        resolved_at=timezone.now(), resolved_by=by
    )


def chat_suspend(*, user, by, until=None, reason: str = "") -> ChatSuspension:
    """Keep `user` from writing in any chat until `until` (None: until lifted)."""
    return ChatSuspension.objects.create(user=user, created_by=by, until=until, reason=reason)
