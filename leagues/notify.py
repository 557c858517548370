"""League mails: a player seated at a club night, given a bye or taken out of a round, a
request to join waiting for the league's admins, a score sheet waiting for its players'
confirmation.

leagues.services calls these in `transaction.on_commit`, so nothing is sent for a change
that rolled back. Each mail is written in its recipient's language and goes only to
active players with an email address who have not turned that kind of mail off
(`accounts.User.notify_*`). The mails are written at once and sent by a task
(`send_mails`, run by the worker). A mail server that fails is logged, not raised: what was
saved stays saved.
"""

import logging
from collections.abc import Callable, Iterable
from functools import partial

from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django_tasks import task

from accounts.models import User
from games.models import Seat
from leagues.models import Membership, ScoreSheet

logger = logging.getLogger(__name__)


def absolute(path: str) -> str:
    """A link that works from a mail or a calendar: the site's address (SITE_URL) + path."""
    return settings.SITE_URL + path


def _wants(user, preference: str) -> bool:
    return bool(user.email) and user.is_active and getattr(user, preference)


def _message(user, write: Callable[[], tuple[str, str]]) -> mail.EmailMessage:
    """`write()` returns (subject, body), called in the recipient's language."""
    with translation.override(user.preferred_language or settings.LANGUAGE_CODE):
        subject, body = write()
        footer = _("You can turn these emails off on your profile: %(url)s") % {
            "url": absolute(reverse("profile_edit"))
        }
    return mail.EmailMessage(
        subject=subject.replace("\n", " "), body=f"{body}\n\n-- \n{footer}\n", to=[user.email]
    )


def _send(messages: list[mail.EmailMessage], what: str) -> int:
    """Queue the mails for a worker (the request does not wait for the mail server); returns
    how many were queued."""
    if not messages:
        return 0
    send_mails.enqueue([[m.subject, m.body, m.to] for m in messages], what)
    return len(messages)


@task()
def send_mails(mails: list[list], what: str) -> int:
    """Send [subject, body, recipients] mails (a task: leagues/tasks.py). Returns those sent."""
    messages = [mail.EmailMessage(subject=s, body=body, to=to) for s, body, to in mails]
    try:
        return mail.get_connection().send_messages(messages) or 0
    except Exception:  # the mail server's failure, whatever its kind: see the module's doc
        logger.exception("League mails not sent (%s): %d messages", what, len(messages))
        return 0


def _player_name(user) -> str:
    """Their name, with the username the admin finds them by when it is another."""
    if user.shown_name == user.username:
        return user.username
    return f"{user.shown_name} ({user.username})"


def _names(users: Iterable) -> str:
    return ", ".join(user.shown_name for user in users)


# --- a round of a club evening or tournament is seated ------------------------------------------


def _when(event) -> str:
    """The event's date, and its start time when it has one (the club's time), in the
    language of the mail."""
    day = date_format(event.date, "DATE_FORMAT")
    if event.starts_at is None:
        return day
    return _("%(date)s at %(time)s") % {
        "date": day,
        "time": time_format(event.starts_at, "TIME_FORMAT"),
    }


def players_seated(*, event, tables, user_ids=None) -> int:
    """Mail each player seated at these tables of the event (only those of `user_ids`,
    when given: a replacement, or players swapped to another table): their table, its
    link, the date and place, who else sits there. Returns the number of mails sent."""
    slots = {
        slot.table_id: slot
        for slot in event.seated_tables.filter(table__in=tables).select_related("table")
    }
    seats = (
        Seat.objects.filter(table_id__in=list(slots), user__isnull=False)
        .select_related("user")
        .order_by("table_id", "position")
    )
    players: dict[int, list] = {}
    for seat in seats:
        players.setdefault(seat.table_id, []).append(seat.user)
    league = event.season.league
    messages = []
    for table_id, slot in slots.items():
        at_table = players.get(table_id, [])
        for user in at_table:
            if not _wants(user, "notify_seated"):
                continue
            if user_ids is not None and user.pk not in user_ids:
                continue
            others = [other for other in at_table if other.pk != user.pk]
            write = partial(_seated_text, event, league, slot, user, others)
            messages.append(_message(user, write))
    return _send(messages, f"seated: {event!r}")


def _seated_text(event, league, slot, user, others) -> tuple[str, str]:
    when = _when(event)
    event_name = str(event)
    subject = _("%(league)s: %(event)s, round %(round)s, table %(table)s") % {
        "league": league.name,
        "event": event_name,
        "round": slot.round,
        "table": slot.number,
    }
    lines = [
        _("Hello %(name)s,") % {"name": user.shown_name},
        "",
        _("You are seated for round %(round)s: %(event)s (%(league)s), on %(date)s.")
        % {"round": slot.round, "event": event_name, "league": league.name, "date": when},
    ]
    if event.place:
        lines.append(_("Place: %(place)s") % {"place": event.place})
    lines += [
        _("Your table: table %(number)s, “%(name)s”") % {"number": slot.number, "name": slot.table},
        _("With: %(players)s") % {"players": _names(others) or "—"},
        _("Your table's page: %(url)s") % {"url": absolute(slot.table.get_absolute_url())},
    ]
    return subject, "\n".join(lines)


def players_bye(*, event, round_number: int, user_ids) -> int:
    """Mail each player the seating of a duplicate round left out (a bye): they sit this
    round out. Returns the number of mails sent."""
    league = event.season.league
    messages = []
    for user in User.objects.filter(pk__in=list(user_ids)).order_by("pk"):
        if not _wants(user, "notify_seated"):
            continue

        def write(user=user):
            event_name = str(event)
            subject = _("%(league)s: %(event)s, round %(round)s, you have a bye") % {
                "league": league.name,
                "event": event_name,
                "round": round_number,
            }
            lines = [
                _("Hello %(name)s,") % {"name": user.shown_name},
                "",
                _("You sit out round %(round)s of %(event)s (%(league)s), on %(date)s: a bye.")
                % {
                    "round": round_number,
                    "event": event_name,
                    "league": league.name,
                    "date": _when(event),
                },
                _(
                    "Every table of a duplicate round has the same number of players, and the "
                    "players left over sit it out; nobody has a second bye before every "
                    "present player has had one."
                ),
                _("The tournament's page: %(url)s") % {"url": absolute(event.get_absolute_url())},
            ]
            return subject, "\n".join(lines)

        messages.append(_message(user, write))
    return _send(messages, f"bye: {event!r}, round {round_number}")


def player_unseated(*, event, round_number: int, user_id: int, by_name: str = "") -> int:
    """Mail a player the organiser took out of a round, marked absent or replaced (by
    `by_name`): they are no longer among the event's present players, and the next rounds
    do not seat them. Returns the number of mails sent (0 or 1)."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or not _wants(user, "notify_seated"):
        return 0
    league = event.season.league

    def write():
        event_name = str(event)
        values = {
            "round": round_number,
            "event": event_name,
            "league": league.name,
            "date": _when(event),
            "by": by_name,
        }
        subject = _("%(league)s: %(event)s, you are no longer seated") % values
        if by_name:
            what = _(
                "%(by)s takes your seat in round %(round)s of %(event)s (%(league)s), on %(date)s."
            )
        else:
            what = _(
                "You are marked absent from round %(round)s of %(event)s (%(league)s), on %(date)s."
            )
        lines = [
            _("Hello %(name)s,") % {"name": user.shown_name},
            "",
            what % values,
            _(
                "You are no longer among the present players, so the next rounds do not "
                "seat you: if you are there after all, tell the organiser."
            ),
        ]
        return subject, "\n".join(lines)

    return _send([_message(user, write)], f"unseated: {event!r}, round {round_number}")


# --- a player asks to join a league -------------------------------------------------------------


def join_request_waits(*, membership) -> int:
    """Mail the league's admins (its own, not every site admin) that a player asks to join:
    the league page lets them in, and a staff admin gets the admin's list of the league's
    waiting requests too. A league without admins has the site's admins (superusers, the
    only staff who see every league's requests) mailed instead."""
    membership = (
        Membership.objects.select_related("league", "user").filter(pk=membership.pk).first()
    )
    if membership is None or membership.status != Membership.Status.PENDING:
        return 0  # let in, or gone, before the mail left
    league, player = membership.league, membership.user
    admins = league.admins.all()
    if not admins.exists():
        admins = User.objects.filter(is_superuser=True).order_by("pk")
    messages = []
    for admin in admins.exclude(pk=player.pk):
        if not _wants(admin, "notify_join_requests"):
            continue

        def write(admin=admin):
            subject = _("%(league)s: %(player)s asks to join") % {
                "league": league.name,
                "player": player.shown_name,
            }
            lines = [
                _("Hello %(name)s,") % {"name": admin.shown_name},
                "",
                _("%(player)s asks to join %(league)s.")
                % {"player": _player_name(player), "league": league.name},
                _("Let them in from the league's page: %(url)s")
                % {"url": absolute(league.get_absolute_url())},
            ]
            if admin.is_staff or admin.is_superuser:
                lines.append(
                    _("or from the requests waiting in the admin: %(url)s")
                    % {"url": absolute(league.get_members_admin_url(Membership.Status.PENDING))}
                )
            return subject, "\n".join(lines)

        messages.append(_message(admin, write))
    return _send(messages, f"join request: {membership.pk}")


# --- a score sheet waits for its players ---------------------------------------------------------


def sheet_waits(*, sheet, by, again: bool = False) -> int:
    """Mail the players of a score sheet who have still to answer it (never `by`, who just
    entered or fixed it): the sheet's page, where they confirm or dispute it. `again`: a
    league admin wrote it anew, and every earlier answer was cleared."""
    sheet = ScoreSheet.objects.select_related("season__league", "table").filter(pk=sheet.pk).first()
    if sheet is None or sheet.status != ScoreSheet.Status.PENDING:
        return 0  # confirmed for all, disputed or removed before the mail left
    seats = list(sheet.table.seats.select_related("user").order_by("position"))
    players = [seat.user for seat in seats if seat.user_id is not None]
    answered = set(sheet.answers.values_list("user_id", flat=True))
    season, league = sheet.season, sheet.season.league
    game = season.game
    totals = list(game.league_totals(sheet.lines)) if game.league_totals else []
    link = absolute(reverse("league_sheet", args=[sheet.pk]))
    messages = []
    for user in players:
        if user.pk == by.pk or user.pk in answered or not _wants(user, "notify_sheets"):
            continue

        def write(user=user):
            when = date_format(sheet.played_on, "DATE_FORMAT")
            if again:
                subject = _("%(league)s: the score sheet of %(date)s was corrected") % {
                    "league": league.name,
                    "date": when,
                }
                opening = _(
                    "%(by)s wrote the score sheet of your game of %(date)s (%(season)s) again: "
                    "it counts once every player confirms it anew."
                )
            else:
                subject = _("%(league)s: confirm the score sheet of %(date)s") % {
                    "league": league.name,
                    "date": when,
                }
                opening = _(
                    "%(by)s entered the score sheet of your game of %(date)s (%(season)s): "
                    "it counts once every player confirms it."
                )
            lines = [
                _("Hello %(name)s,") % {"name": user.shown_name},
                "",
                opening % {"by": by.shown_name, "date": when, "season": season.name},
            ]
            if totals and len(totals) == len(seats):
                scores = ", ".join(
                    f"{seat.user.shown_name if seat.user else seat.bot} {total}"
                    for seat, total in zip(seats, totals, strict=True)
                )
                lines.append(
                    _("%(unit)s: %(scores)s") % {"unit": game.score_label, "scores": scores}
                )
            lines.append(_("Confirm it, or say what is wrong, here: %(url)s") % {"url": link})
            return subject, "\n".join(lines)

        messages.append(_message(user, write))
    return _send(messages, f"score sheet: {sheet.pk}")
