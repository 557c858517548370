"""A league's evenings and tournaments as an iCalendar feed (RFC 5545), for players'
calendar apps: `/leagues/<slug>/calendar.ics`.

A public league's feed is anyone's; a members-only league's needs `?token=`, a secret
derived from the league's invitation code (`calendar_token`): members and admins find
the link on the league page, and a new invitation link changes it too. A signed-in
member or admin reads it without the token.

An event without a start time is a whole-day event (DTSTART;VALUE=DATE); one with a
start time (`starts_at`, the club's time: settings.TIME_ZONE) is a timed event of
EVENT_LENGTH, its DTSTART and DTEND in UTC (a trailing Z), which every calendar app shows
in its reader's time zone, with no VTIMEZONE to write.

Written by hand: the few properties such a feed needs, with RFC 5545's text escaping
(§3.3.11) and lines folded at 75 octets (§3.1).
"""

import datetime
import secrets
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import selectors
from leagues.models import Evening, League, Membership, Tournament
from leagues.notify import absolute

LINE_OCTETS = 75
CRLF = "\r\n"
# How long a timed event lasts in the calendar: the feed knows when an evening starts, not
# when it ends.
EVENT_LENGTH = datetime.timedelta(hours=3)


def calendar_token(league: League) -> str:
    """The members-only feed's secret: none to store, and it changes with the invitation
    code (an admin who renews a leaked invitation link renews the feed's link too)."""
    return salted_hmac(
        "leagues.calendar", f"{league.pk}:{league.invite_code}", algorithm="sha256"
    ).hexdigest()[:32]


def calendar_url(league: League) -> str:
    """The feed's path; with its token for a members-only league (show it to members only)."""
    url = reverse("league_calendar", args=[league.slug])
    if not league.is_public:
        url += f"?token={calendar_token(league)}"
    return url


def escape_text(value: str) -> str:
    """A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and newlines escaped;
    other control characters, which TEXT may not hold, dropped."""
    value = str(value).replace("\r\n", "\n").replace("\r", "\n")
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    value = value.replace("\n", "\\n")
    return "".join(c for c in value if c == "\t" or (ord(c) >= 32 and c != "\x7f"))


def fold(line: str) -> str:
    """A content line folded so that no line is longer than 75 octets (RFC 5545 §3.1),
    never inside a UTF-8 character; each continuation starts with a space."""
    if len(line.encode()) <= LINE_OCTETS:
        return line
    parts, current, size, limit = [], [], 0, LINE_OCTETS
    for char in line:
        octets = len(char.encode())
        if size + octets > limit:
            parts.append("".join(current))
            current, size, limit = [], 0, LINE_OCTETS - 1  # the leading space counts
        current.append(char)
        size += octets
    parts.append("".join(current))
    return (CRLF + " ").join(parts)


def _date(day: datetime.date) -> str:
    return day.strftime("%Y%m%d")


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def _when_lines(event):
    start = event.starts()
    if start is None:
        yield f"DTSTART;VALUE=DATE:{_date(event.date)}"
        yield f"DTEND;VALUE=DATE:{_date(event.date + datetime.timedelta(days=1))}"
    else:
        yield f"DTSTART:{_utc(start)}"
        yield f"DTEND:{_utc(start.astimezone(datetime.UTC) + EVENT_LENGTH)}"


def _event_lines(event, *, kind: str, summary: str, description: str, stamp: str, host: str):
    yield "BEGIN:VEVENT"
    yield f"UID:{kind}-{event.pk}@{host}"
    yield f"DTSTAMP:{stamp}"
    yield from _when_lines(event)
    yield f"SUMMARY:{escape_text(summary)}"
    if event.place:
        yield f"LOCATION:{escape_text(event.place)}"
    if description:
        yield f"DESCRIPTION:{escape_text(description)}"
    yield f"URL:{absolute(event.get_absolute_url())}"
    yield "END:VEVENT"


def league_calendar_text(league: League) -> str:
    """The league's evenings and tournaments, every season, as one VCALENDAR."""
    host = urlsplit(settings.SITE_URL).hostname or "sixclub"
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//sixclub//league calendar//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{escape_text(league.name)}",
    ]
    evenings = Evening.objects.filter(season__league=league).select_related("season__league")
    for evening in evenings.order_by("date", "pk"):
        details = [evening.season.name, str(evening.season.game.label), evening.notes]
        lines += _event_lines(
            evening,
            kind="evening",
            summary=f"{league.name}: {evening}",
            description="\n".join(part for part in details if part),
            stamp=stamp,
            host=host,
        )
    tournaments = Tournament.objects.filter(season__league=league).select_related("season__league")
    for tournament in tournaments.order_by("date", "pk"):
        details = [
            tournament.season.name,
            str(tournament.season.game.label),
            ngettext("%(n)s round", "%(n)s rounds", tournament.rounds) % {"n": tournament.rounds},
        ]
        if tournament.duplicate:
            details.append(_("duplicate"))
        lines += _event_lines(
            tournament,
            kind="tournament",
            summary=f"{league.name}: {tournament.name}",
            description="\n".join(details),
            stamp=stamp,
            host=host,
        )
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + CRLF for line in lines)


def _may_read(request, league: League) -> bool:
    if league.is_public:
        return True
    token = request.GET.get("token", "")
    if token and secrets.compare_digest(token, calendar_token(league)):
        return True
    status = selectors.membership_status(league, request.user)
    return status == Membership.Status.ACTIVE or league.is_admin(request.user)


def league_calendar(request, slug):
    league = get_object_or_404(League, slug=slug)
    if not _may_read(request, league):
        raise PermissionDenied
    response = HttpResponse(
        league_calendar_text(league), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{league.slug}.ics"'
    if not league.is_public:
        response["Cache-Control"] = "private"
    return response
