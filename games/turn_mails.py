"""Mails of turn-based tables (RULES §1.8): a decision waits for a player, and the daily
digest of the tables waiting for her.

A decision that starts waiting for a player is marked on her seat (`Seat.awaited_since`,
services.decisions) and its mail queued in that decision's transaction, to run
SIXCLUB_TURN_MAIL_DELAY seconds later where the task backend can wait (the database one);
the task (games.tasks) mails her once, if she still wants single mails
(`accounts.User.turn_mails`) and the decision still waits: claimed with `Seat.mailed_at`,
so a task run twice sends one mail. The deadline a mail gives is the table's limit after
the decision started waiting (when its decision point opened). Digest players get one
mail a day instead, queued by the clock at SIXCLUB_DIGEST_HOUR (`digest_due`). Each mail
is written in its recipient's language, with absolute links to the tables. A mail server
that fails is logged, not raised.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import kinds
from games.models import DigestDay, Seat, Table

logger = logging.getLogger(__name__)


def absolute(path: str) -> str:
    """A link that works from a mail: the site's address (SITE_URL) + path."""
    return settings.SITE_URL + path


def decision_waits(*, seat: Seat, since: datetime) -> None:
    """Queue the mail of a decision that waits for `seat`'s player since `since`. Called in
    the decision's transaction: the task row commits or rolls back with it."""
    from games import tasks  # the tasks call back into this module

    mail_task = tasks.mail_decision
    if mail_task.get_backend().supports_defer and settings.SIXCLUB_TURN_MAIL_DELAY:
        later = since + timedelta(seconds=settings.SIXCLUB_TURN_MAIL_DELAY)
        mail_task = mail_task.using(run_after=later)
    mail_task.enqueue(seat.pk, since.isoformat())


def _waiting_seats():
    return Seat.objects.filter(
        awaited_since__isnull=False, table__status=Table.Status.PLAYING
    ).select_related("table", "user")


def _active(user) -> bool:
    return bool(user.email) and user.is_active


def _when(moment) -> str:
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def _message(user, subject: str, lines: list[str]) -> mail.EmailMessage:
    footer = _("Choose how you are told of your turns on your profile: %(url)s") % {
        "url": absolute(reverse("profile_edit"))
    }
    body = "\n".join(lines)
    return mail.EmailMessage(
        subject=subject.replace("\n", " "), body=f"{body}\n\n-- \n{footer}\n", to=[user.email]
    )


def _language(user) -> str:
    return user.preferred_language or settings.LANGUAGE_CODE


def deadline_of(seat: Seat) -> datetime:
    """When the computer decides for the waiting player: the table's limit after her
    decision started waiting (services.seat_deadline, for a turn-based table)."""
    return seat.awaited_since + timedelta(seconds=seat.table.time_limit)


def _table_line(seat: Seat) -> str:
    table = seat.table
    values = {
        "table": table,
        "game": kinds.get(table.kind).label,
        "deadline": _when(deadline_of(seat)),
        "url": absolute(table.get_absolute_url()),
    }
    return _("“%(table)s” (%(game)s), before %(deadline)s: %(url)s") % values


def send_decision_mail(*, seat_id: int, since: datetime) -> int:
    """Mail the player of seat `seat_id` that a decision waits for her since `since`: once,
    while it still waits and she wants single mails. Returns the number of mails sent."""
    with transaction.atomic():
        claimed = Seat.objects.filter(
            pk=seat_id,
            awaited_since=since,
            mailed_at__isnull=True,
            table__status=Table.Status.PLAYING,
            user__turn_mails=User.TurnMails.EACH,
            user__is_active=True,
        ).update(mailed_at=timezone.now())
    if not claimed:
        return 0
    seat = _waiting_seats().filter(pk=seat_id).first()
    if seat is None or not _active(seat.user):
        return 0
    user, table = seat.user, seat.table
    with translation.override(_language(user)):
        subject = _("Your turn at “%(table)s”") % {"table": table}
        lines = [
            _("Hello %(name)s,") % {"name": user.shown_name},
            "",
            _("A decision waits for you at the turn-based table “%(table)s” (%(game)s).")
            % {"table": table, "game": kinds.get(table.kind).label},
        ]
        lines.append(
            _("Play before %(deadline)s: after that the computer plays for you.")
            % {"deadline": _when(deadline_of(seat))}
        )
        lines.append(_("Your table: %(url)s") % {"url": absolute(table.get_absolute_url())})
        message = _message(user, subject, lines)
    return _deliver([message], f"turn: seat {seat_id}")


def send_digests() -> int:
    """Mail each player who chose the daily digest the tables waiting for her: one mail
    each, none to a player nothing waits for. Returns the number of mails sent."""
    seats = (
        _waiting_seats()
        .filter(user__turn_mails=User.TurnMails.DIGEST, user__is_active=True)
        .order_by("user_id", "awaited_since")
    )
    waiting: dict[int, list[Seat]] = {}
    for seat in seats:
        waiting.setdefault(seat.user_id, []).append(seat)
    messages = []
    for user_seats in waiting.values():
        user = user_seats[0].user
        if not _active(user):
            continue
        with translation.override(_language(user)):
            count = len(user_seats)
            subject = ngettext("%(n)d table waits for you", "%(n)d tables wait for you", count) % {
                "n": count
            }
            lines = [
                _("Hello %(name)s,") % {"name": user.shown_name},
                "",
                ngettext(
                    "A decision waits for you at this turn-based table:",
                    "A decision waits for you at each of these turn-based tables:",
                    count,
                ),
                "",
                *(f"- {_table_line(seat)}" for seat in user_seats),
                "",
                _("All your games: %(url)s") % {"url": absolute(reverse("my_games"))},
            ]
            messages.append(_message(user, subject, lines))
    return _deliver(messages, "turn digest")


def _deliver(messages: list[mail.EmailMessage], what: str) -> int:
    if not messages:
        return 0
    try:
        return mail.get_connection().send_messages(messages) or 0
    except Exception:  # the mail server's failure, whatever its kind: see the module's doc
        logger.exception("Turn mails not sent (%s): %d messages", what, len(messages))
        return 0


def digest_due(now=None) -> bool:
    """Queue today's digest once it is SIXCLUB_DIGEST_HOUR (local time) or later, and only
    once whichever process's clock asks first: the day's DigestDay row is the claim.
    Returns whether this call queued it."""
    now = timezone.localtime(now or timezone.now())
    if now.hour < settings.SIXCLUB_DIGEST_HOUR:
        return False
    if DigestDay.objects.filter(day=now.date()).exists():
        return False
    from games import tasks

    try:
        with transaction.atomic():
            DigestDay.objects.create(day=now.date())
            tasks.mail_digests.enqueue()
    except IntegrityError:
        return False  # another clock claimed the day first
    return True
