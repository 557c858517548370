"""What the chat stores: messages, who mutes whom, reports and suspensions.

A message belongs to a table's chat (its players and spectators) or, with no table, to the
lobby's. Everything of a user goes with the user (on_delete=CASCADE): deleting an account
deletes its messages, its mutes and its reports.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chat.canned import CANNED

# Characters of one free-text message (docs/protocol.md, "Chat").
MAX_LENGTH = 200


class ChatMessage(models.Model):
    table = models.ForeignKey(
        "games.Table",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("table"),
        help_text=_("Empty for the lobby."),
    )
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("sender"),
    )
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True)
    canned = models.CharField(
        _("canned message"), max_length=24, blank=True, choices=list(CANNED.items())
    )
    # The sender had no seat at the table when they wrote (players may hide these).
    from_spectator = models.BooleanField(_("from a spectator"), default=False)
    # The browser's own id for the message: a message resent with it is stored once.
    client_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["table", "-id"], name="chat_room_latest")]
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "client_id"],
                condition=~Q(client_id=""),
                name="chat_one_message_per_client_id",
            )
        ]

    def __str__(self):
        return self.shown_text

    @property
    def shown_text(self) -> str:
        """The text as the reader sees it: a canned message in the active language."""
        return str(CANNED[self.canned]) if self.canned in CANNED else self.text


class ChatMute(models.Model):
    """`user` no longer sees what `muted` writes, in any chat."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_muted_by"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]

    def __str__(self):
        return _("%(user)s mutes %(muted)s") % {"user": self.user, "muted": self.muted}


class ChatPreference(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_preference"
    )
    # At tables, what spectators write is not shown to this user.
    hide_spectators = models.BooleanField(default=False)

    def __str__(self):
        return str(self.user)


class ChatReport(models.Model):
    """A message someone asked an admin to look at."""

    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_reports",
        verbose_name=_("reported by"),
    )
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("resolved by"),
    )

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")
        ]

    def __str__(self):
        return _("Report of message %(id)s") % {"id": self.message_id}


class ChatSuspensionQuerySet(models.QuerySet):
    def active(self, now=None):
        now = now or timezone.now()
        return self.filter(Q(until__isnull=True) | Q(until__gt=now))


class ChatSuspension(models.Model):
    """While it lasts, `user` may read the chats but not write in them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_suspensions",
        verbose_name=_("player"),
    )
    until = models.DateTimeField(
        _("until"), null=True, blank=True, help_text=_("Empty: until an admin lifts it.")
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("suspended by"),
    )
    created_at = models.DateTimeField(_("suspended at"), default=timezone.now)

    objects = ChatSuspensionQuerySet.as_manager()

    class Meta:
        verbose_name = _("chat suspension")
        verbose_name_plural = _("chat suspensions")

    def __str__(self):
        return _("%(user)s suspended from the chat") % {"user": self.user}
