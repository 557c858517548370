"""The night, on an evening's or a tournament's own admin page: seat the next round, see
why a present player cannot be seated, swap, replace or remove players before their game
starts, start one table or every table of a round.

The page's panel (templates/admin/leagues/night.html) sits inside the change form; its
buttons post to `night/` with `formaction`, so that nothing of the event's own form is
saved by them.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.models import User
from games.models import Table, number_bots
from leagues import services
from leagues.models import Membership


class NightAdminMixin:
    """For ModelAdmins of evenings and tournaments (leagues.admin.ClubEventAdmin)."""

    change_form_template = "admin/leagues/night_change_form.html"

    def _url_name(self, view: str) -> str:
        return f"{self.opts.app_label}_{self.opts.model_name}_{view}"

    def get_urls(self):
        night = self.admin_site.admin_view(require_POST(self.night_view))
        return [
            path("<path:object_id>/night/", night, name=self._url_name("night")),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        event = self.get_object(request, object_id)
        extra_context = dict(extra_context or {})
        if event is not None and self.has_change_permission(request, event):
            extra_context["night"] = night_context(event)
            extra_context["night_url"] = reverse(
                f"admin:{self._url_name('night')}",
                args=[event.pk],
                current_app=self.admin_site.name,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def night_view(self, request, object_id):
        event = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_change_permission(request, event):
            raise PermissionDenied
        back = HttpResponseRedirect(
            reverse(
                f"admin:{self._url_name('change')}",
                args=[event.pk],
                current_app=self.admin_site.name,
            )
        )
        action, _sep, argument = request.POST.get("night", "").partition(":")
        try:
            message = self._night_action(request, event, action, argument)
        except services.LeagueError as error:
            self.message_user(request, error.message, messages.ERROR)
        except (ValueError, KeyError, User.DoesNotExist):
            self.message_user(request, _("That request was not understood."), messages.ERROR)
        else:
            if message:
                self.message_user(request, message, messages.SUCCESS)
        return back

    def _night_action(self, request, event, action: str, argument: str) -> str:
        if action == "seat":
            tables = services.seating_generate(event=event)
            message = ngettext(
                "%(n)d table seated, ready to play.",
                "%(n)d tables seated, ready to play.",
                len(tables),
            ) % {"n": len(tables)}
            if event.date != timezone.localdate():
                self.message_user(request, date_warning(event), messages.WARNING)
            return message
        if action == "start_round":
            slots = event.seated_tables.filter(round=int(argument)).values_list("pk", flat=True)
            started = services.night_start(event=event, slot_ids=list(slots), user=request.user)
            return ngettext("%(n)d table started.", "%(n)d tables started.", len(started)) % {
                "n": len(started)
            }
        if action == "start":
            started = services.night_start(event=event, slot_ids=[int(argument)], user=request.user)
            return ngettext("%(n)d table started.", "%(n)d tables started.", len(started)) % {
                "n": len(started)
            }
        if action == "checkin":
            ids = (
                [int(argument)]
                if argument
                else list(event.registrations.values_list("user_id", flat=True))
            )
            count = services.tournament_check_in(tournament=event, user_ids=ids)
            return ngettext("%(n)d player checked in.", "%(n)d players checked in.", count) % {
                "n": count
            }
        if action == "paper":
            services.table_to_paper(event=event, slot_id=int(argument))
            return _("The table plays with real cards: enter its score sheet when it is over.")
        if action == "swap":
            first = _seat_value(request.POST[f"swap_a_{int(argument)}"])
            second = _seat_value(request.POST[f"swap_b_{int(argument)}"])
            services.night_swap(event=event, first=first, second=second)
            if first[0] != second[0]:
                return _("The two players swapped seats; each is mailed their new table.")
            return _("The two players swapped seats.")
        slot_id, user_id = _seat_value(argument)
        player = User.objects.get(pk=user_id)
        if action in ("remove", "absent"):
            absent = action == "absent"
            left = services.night_remove(
                event=event, slot_id=slot_id, user_id=user_id, absent=absent
            )
            if left < event.min_table_size:
                self.message_user(request, too_few_warning(left, event), messages.WARNING)
            if absent:
                return _(
                    "%(player)s is marked absent and is no longer among the present players."
                ) % {"player": player.shown_name}
            return _(
                "%(player)s left the table and is still among the present players: the next "
                "round seats them."
            ) % {"player": player.shown_name}
        if action == "replace":
            kind, _sep, value = request.POST[f"by_{slot_id}_{user_id}"].partition(":")
            if kind == "user":
                member = User.objects.get(
                    pk=int(value),
                    memberships__league_id=event.season.league_id,
                    memberships__status=Membership.Status.ACTIVE,
                )
                services.night_replace(
                    event=event, slot_id=slot_id, user_id=user_id, by_user=member
                )
                return _(
                    "%(new)s takes the seat of %(player)s, and is among the present players "
                    "instead."
                ) % {"new": member.shown_name, "player": player.shown_name}
            if kind == "bot":
                services.night_replace(event=event, slot_id=slot_id, user_id=user_id, by_bot=value)
                return _(
                    "A bot takes the seat of %(player)s, who is no longer among the present "
                    "players."
                ) % {"player": player.shown_name}
            raise ValueError(kind)
        raise ValueError(action)


def _seat_value(value: str) -> tuple[int, int]:
    """ "<slot id>:<user id>", as the panel's buttons and choices write a seat."""
    slot_id, _sep, user_id = value.partition(":")
    return int(slot_id), int(user_id)


def too_few_warning(left: int, event) -> str:
    """Remove may leave a table below the event's fewest players (someone went home, and
    nobody takes the seat): it still plays, and the organiser is told."""
    return ngettext(
        "The table now has %(n)d player, fewer than this event's fewest (%(fewest)d): it "
        "still plays, with one player fewer.",
        "The table now has %(n)d players, fewer than this event's fewest (%(fewest)d): it "
        "still plays, with one player fewer.",
        left,
    ) % {"n": left, "fewest": event.min_table_size}


def date_warning(event) -> str:
    return _("This event's date is %(date)s, not today: check that it is the right one.") % {
        "date": event.date
    }


def night_context(event) -> dict:
    """What the night panel shows: the rounds' tables and seats, the choices for a
    replacement, and the present players who cannot be seated, with why."""
    season = event.season
    game = season.game
    slots = list(
        event.seated_tables.select_related("table__score_sheet").prefetch_related(
            "table__seats__user"
        )
    )
    rounds: dict[int, list] = {}
    for slot in slots:
        seats = [
            {
                "position": seat.position,
                "name": seat.name,
                "user_id": seat.user_id,
                "value": f"{slot.pk}:{seat.user_id}" if seat.user_id else "",
            }
            for seat in number_bots(slot.table.seats.all())
        ]
        paper = slot.table.paper
        sheet = getattr(slot.table, "score_sheet", None) if paper else None
        rounds.setdefault(slot.round, []).append(
            {
                "slot": slot,
                "table": slot.table,
                "seats": seats,
                "open": slot.table.status == Table.Status.OPEN and not paper,
                "paper": paper,
                "sheet_url": reverse("league_sheet", args=[sheet.pk])
                if sheet
                else reverse("league_sheet_new", args=[season.league.slug])
                + f"?table={slot.table_id}",
            }
        )
    last = max(rounds, default=0)
    members = {
        m.user_id: m
        for m in Membership.objects.filter(league_id=season.league_id).select_related("user")
    }
    present = list(event.players.all())
    cannot = []
    for user in present:
        membership = members.get(user.pk)
        if membership is None:
            cannot.append(
                {
                    "user": user,
                    "why": _(
                        "not a member of the league: send them the invitation link, or take "
                        "them out of the present players"
                    ),
                    "fix": season.league.get_invite_url(),
                }
            )
        elif membership.status != Membership.Status.ACTIVE:
            cannot.append(
                {
                    "user": user,
                    "why": _("has asked to join and waits for approval"),
                    "fix": reverse("admin:leagues_membership_change", args=[membership.pk]),
                }
            )
    seated_last = {seat["user_id"] for table in rounds.get(last, []) for seat in table["seats"]}
    replacements = [
        {"value": f"user:{m.user_id}", "label": m.user.shown_name}
        for m in sorted(members.values(), key=lambda m: m.user.shown_name.casefold())
        if m.status == Membership.Status.ACTIVE and m.user_id not in seated_last
    ]
    replacements += [
        {"value": f"bot:{name}", "label": str(label)} for name, label in game.bot_choices
    ]
    registered = []
    if hasattr(event, "registrations"):
        present_ids = {user.pk for user in present}
        registered = [
            r.user
            for r in event.registrations.select_related("user")
            if r.user_id not in present_ids
        ]
    return {
        "registered": registered,
        "rounds": sorted(rounds.items()),
        "last_round": last,
        "replacements": replacements,
        "cannot": cannot,
        "present": len(present),
        "not_today": event.date != timezone.localdate(),
        "sizes": (event.min_table_size, event.table_size),
    }
