"""Evenings and tournaments in the admin: their tables, and the night's panel (night.py)."""

from django.contrib import admin, messages
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Seat, Table, number_bots
from leagues import services
from leagues.admin.base import (
    LeagueScopedAdmin,
    LeagueScopedFilter,
    ReadOnlyInline,
)
from leagues.admin.night import NightAdminMixin, date_warning
from leagues.models import (
    Evening,
    EveningTable,
    Membership,
    Tournament,
    TournamentTable,
)


def _table_link(table: Table):
    return format_html('<a href="{}">{}</a>', reverse("table", args=[table.pk]), table)


class SeatedTableInline(ReadOnlyInline):
    fields = ("round", "number", "table_link", "players", "status")
    readonly_fields = fields

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("table")
            .prefetch_related(
                Prefetch("table__seats", queryset=Seat.objects.select_related("user"))
            )
        )

    @admin.display(description=_("table"))
    def table_link(self, slot):
        return _table_link(slot.table)

    @admin.display(description=_("players"))
    def players(self, slot):
        return ", ".join(str(seat) for seat in number_bots(slot.table.seats.all()))

    @admin.display(description=_("status"))
    def status(self, slot):
        return slot.table.get_status_display()


class EveningTableInline(SeatedTableInline):
    model = EveningTable


class TournamentTableInline(SeatedTableInline):
    model = TournamentTable


class ClubEventAdmin(NightAdminMixin, LeagueScopedAdmin):
    league_path = "season__league"
    filter_horizontal = ("players",)
    list_select_related = ("season__league",)
    actions = ["generate_seating"]
    readonly_fields = ("game_end",)

    @admin.display(description=_("each game"))
    def game_end(self, event):
        """Which of the threshold and the rounds per game applies: both may be filled."""
        if event.game_rounds:
            return ngettext(
                "%(n)d round (the threshold does not apply)",
                "%(n)d rounds (the threshold does not apply)",
                event.game_rounds,
            ) % {"n": event.game_rounds}
        return gettext("to the threshold, %(n)d (no rounds per game)") % {"n": event.threshold}

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        # The present players are chosen among members (of the leagues the admin runs):
        # never a list of every player of the site.
        if db_field.name == "players":
            members = Membership.objects.filter(status=Membership.Status.ACTIVE)
            if not request.user.is_superuser:
                members = members.filter(league__admins=request.user)
            kwargs["queryset"] = User.objects.filter(pk__in=members.values("user_id"))
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    @admin.display(description=_("present"))
    def player_count(self, event):
        return event.players.count()

    @admin.action(description=_("Generate the next round's seating"))
    def generate_seating(self, request, queryset):
        for event in queryset:
            try:
                tables = services.seating_generate(event=event)
            except services.LeagueError as error:
                self.message_user(request, f"{event}: {error.message}", messages.ERROR)
            else:
                if event.date != timezone.localdate():
                    self.message_user(request, f"{event}: {date_warning(event)}", messages.WARNING)
                self.message_user(
                    request,
                    ngettext(
                        "%(event)s: %(n)d table seated, ready to play.",
                        "%(event)s: %(n)d tables seated, ready to play.",
                        len(tables),
                    )
                    % {"event": event, "n": len(tables)},
                    messages.SUCCESS,
                )


@admin.register(Evening)
class EveningAdmin(ClubEventAdmin):
    list_display = ("__str__", "season", "date", "starts_at", "place", "player_count")
    list_filter = (
        ("season__league", LeagueScopedFilter),
        ("season", LeagueScopedFilter),
        "date",
    )
    search_fields = ("place", "notes", "season__name", "season__league__name")
    date_hierarchy = "date"
    fields = (
        "season",
        "date",
        "starts_at",
        "place",
        "players",
        "seating",
        "min_table_size",
        "table_size",
        "threshold",
        "game_rounds",
        "game_end",
        "tv_table",
        "notes",
    )
    inlines = [EveningTableInline]


@admin.register(Tournament)
class TournamentAdmin(ClubEventAdmin):
    list_display = (
        "name",
        "season",
        "date",
        "starts_at",
        "rounds",
        "seating",
        "duplicate",
        "player_count",
    )
    list_filter = (
        ("season__league", LeagueScopedFilter),
        ("season", LeagueScopedFilter),
        "seating",
        "duplicate",
    )
    search_fields = ("name", "place", "season__name", "season__league__name")
    date_hierarchy = "date"
    fields = (
        "name",
        "season",
        "date",
        "starts_at",
        "place",
        "rounds",
        "seating",
        "duplicate",
        "final_after",
        "final_size",
        "registration_open",
        "players",
        "min_table_size",
        "table_size",
        "threshold",
        "game_rounds",
        "game_end",
        "tv_table",
    )
    inlines = [TournamentTableInline]
