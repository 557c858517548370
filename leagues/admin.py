"""The Django admin of leagues: a club admin runs a whole season from here.

Staff only (the admin site's own rule). Superusers see everything; a league's admins
(`League.admins`) see and manage only their leagues' objects, whatever Django model
permissions they hold: being a league's admin is the permission.
"""

from django.contrib import admin, messages
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from games.models import Game, RoundScore, Table, TakenCard
from leagues import services
from leagues.models import (
    Evening,
    EveningTable,
    League,
    LeagueGame,
    Membership,
    Placing,
    PlayerRating,
    Season,
    Standing,
    Tournament,
    TournamentTable,
)


def administers_a_league(request) -> bool:
    if not hasattr(request, "_administers_a_league"):
        request._administers_a_league = (
            request.user.is_active
            and request.user.is_staff
            and request.user.administered_leagues.exists()
        )
    return request._administers_a_league


class LeagueScopedAdmin(admin.ModelAdmin):
    """An admin whose objects belong to a league, reached through `league_path`."""

    league_path = "league"
    # League admins may add and change these; read-only models turn this off.
    editable = True

    def _scope(self, request):
        lookup = f"{self.league_path}__admins" if self.league_path else "admins"
        return Q(**{lookup: request.user})

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        ids = queryset.filter(self._scope(request)).values("pk")
        return queryset.filter(pk__in=ids)

    def _in_scope(self, request, obj) -> bool:
        if request.user.is_superuser:
            return True
        if not administers_a_league(request):
            return False
        if obj is None:
            return True
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request):
        return request.user.is_superuser or administers_a_league(request)

    def has_view_permission(self, request, obj=None):
        return self._in_scope(request, obj)

    def has_change_permission(self, request, obj=None):
        return self.editable and self._in_scope(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.editable and self._in_scope(request, obj)

    def has_add_permission(self, request):
        return self.editable and self._in_scope(request, None)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser:
            if db_field.name == "league":
                kwargs["queryset"] = League.objects.filter(admins=request.user)
            elif db_field.name == "season":
                kwargs["queryset"] = Season.objects.filter(league__admins=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadOnlyInline(admin.TabularInline):
    """Rows shown with their parent, never edited there (score sheets, piles, tables)."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_view_permission(self, request, obj=None):
        return True  # the parent admin has already decided who sees the parent

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- leagues, seasons, memberships ---------------------------------------------------------


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("user", "status", "joined_at")
    readonly_fields = ("joined_at",)

    def has_view_permission(self, request, obj=None):
        return True

    def has_add_permission(self, request, obj=None):
        return True

    def has_change_permission(self, request, obj=None):
        return True

    def has_delete_permission(self, request, obj=None):
        return True


@admin.register(League)
class LeagueAdmin(LeagueScopedAdmin):
    league_path = ""
    list_display = ("name", "slug", "is_public", "member_count", "created_at")
    list_filter = ("is_public",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("admins",)
    readonly_fields = ("invite_link",)
    fields = ("name", "slug", "description", "is_public", "admins", "invite_link")
    inlines = [MembershipInline]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return queryset.annotate(
            active_members=Count("memberships", filter=Q(memberships__status="active"))
        )

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    @admin.display(description=_("members"), ordering="active_members")
    def member_count(self, league):
        return league.active_members

    @admin.display(description=_("invitation link"))
    def invite_link(self, league):
        if not league.pk:
            return "—"
        return format_html("<code>{}</code>", league.get_invite_url())

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A league's admins run it from here, so they need to be able to log in.
        form.instance.admins.filter(is_staff=False).update(is_staff=True)


@admin.register(Season)
class SeasonAdmin(LeagueScopedAdmin):
    list_display = ("name", "league", "starts_on", "ends_on", "ranking", "min_games", "closed")
    list_filter = ("league", "ranking", "closed")
    search_fields = ("name", "league__name")
    date_hierarchy = "starts_on"
    actions = ["close_seasons", "recompute_standings"]

    @admin.action(description=_("Close the selected seasons"))
    def close_seasons(self, request, queryset):
        for season in queryset:
            services.season_close(season=season)
        count = queryset.count()
        self.message_user(
            request,
            ngettext("%(n)d season closed.", "%(n)d seasons closed.", count) % {"n": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Recompute standings and ratings from the score sheets"))
    def recompute_standings(self, request, queryset):
        for season in queryset:
            games = services.season_recompute(season=season)
            self.message_user(
                request,
                ngettext(
                    "%(season)s: standings recomputed from %(n)d game.",
                    "%(season)s: standings recomputed from %(n)d games.",
                    games,
                )
                % {"season": season, "n": games},
                messages.SUCCESS,
            )


@admin.register(Membership)
class MembershipAdmin(LeagueScopedAdmin):
    list_display = ("user", "league", "status", "joined_at")
    list_filter = ("status", "league")
    search_fields = ("user__username", "user__display_name", "user__email", "league__name")
    list_select_related = ("user", "league")
    actions = ["approve"]

    @admin.action(description=_("Approve the selected memberships"))
    def approve(self, request, queryset):
        count = services.membership_approve(memberships=list(queryset))
        self.message_user(
            request,
            ngettext("%(n)d player let in.", "%(n)d players let in.", count) % {"n": count},
            messages.SUCCESS,
        )


# --- evenings and tournaments -----------------------------------------------------------------


def _table_link(table: Table):
    return format_html('<a href="{}">{}</a>', reverse("table", args=[table.pk]), table)


class SeatedTableInline(ReadOnlyInline):
    fields = ("round", "number", "table_link", "players", "status")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("table")

    @admin.display(description=_("table"))
    def table_link(self, slot):
        return _table_link(slot.table)

    @admin.display(description=_("players"))
    def players(self, slot):
        return ", ".join(seat.name for seat in slot.table.seats.select_related("user"))

    @admin.display(description=_("status"))
    def status(self, slot):
        return slot.table.get_status_display()


class EveningTableInline(SeatedTableInline):
    model = EveningTable


class TournamentTableInline(SeatedTableInline):
    model = TournamentTable


class ClubEventAdmin(LeagueScopedAdmin):
    league_path = "season__league"
    filter_horizontal = ("players",)
    list_select_related = ("season__league",)
    actions = ["generate_seating"]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "players" and not request.user.is_superuser:
            kwargs["queryset"] = User.objects.filter(
                memberships__league__admins=request.user,
                memberships__status=Membership.Status.ACTIVE,
            ).distinct()
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
    list_display = ("__str__", "season", "date", "place", "player_count")
    list_filter = ("season__league", "season", "date")
    search_fields = ("place", "notes", "season__name", "season__league__name")
    date_hierarchy = "date"
    fields = (
        "season",
        "date",
        "place",
        "players",
        "seating",
        "table_size",
        "threshold",
        "game_rounds",
        "notes",
    )
    inlines = [EveningTableInline]


@admin.register(Tournament)
class TournamentAdmin(ClubEventAdmin):
    list_display = ("name", "season", "date", "rounds", "seating", "duplicate", "player_count")
    list_filter = ("season__league", "season", "seating", "duplicate")
    search_fields = ("name", "place", "season__name", "season__league__name")
    date_hierarchy = "date"
    fields = (
        "name",
        "season",
        "date",
        "place",
        "rounds",
        "seating",
        "duplicate",
        "players",
        "table_size",
        "threshold",
        "game_rounds",
    )
    inlines = [TournamentTableInline]


# --- what the league keeps of games (read-only: recompute instead of editing) -------------------


class PlacingInline(ReadOnlyInline):
    model = Placing
    fields = ("user", "seat", "heads", "rounds", "place", "won", "points", "mu", "sigma")
    readonly_fields = fields


@admin.register(LeagueGame)
class LeagueGameAdmin(LeagueScopedAdmin):
    league_path = "season__league"
    editable = False
    list_display = ("game", "season", "finished_at")
    list_filter = ("season__league", "season")
    search_fields = ("game__table__name", "placings__user__username")
    list_select_related = ("season__league", "game__table")
    inlines = [PlacingInline]


@admin.register(Standing)
class StandingAdmin(LeagueScopedAdmin):
    league_path = "season__league"
    editable = False
    list_display = ("user", "season", "games", "rounds", "heads", "wins", "points", "shown_rating")
    list_filter = ("season__league", "season")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user", "season__league")

    @admin.display(description=_("rating"))
    def shown_rating(self, standing):
        return f"{standing.rating:.1f}"


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "games", "mu", "sigma")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RoundScoreInline(ReadOnlyInline):
    model = RoundScore
    verbose_name = _("score sheet line")
    verbose_name_plural = _("score sheet")
    fields = ("round", "seat", "heads")
    readonly_fields = fields


class TakenCardInline(ReadOnlyInline):
    model = TakenCard
    verbose_name = _("picked-up card")
    verbose_name_plural = _("picked-up piles")
    fields = ("round", "turn", "seat", "card", "heads")
    readonly_fields = fields


class GameAdmin(LeagueScopedAdmin):
    """Finished games with their score sheets and picked-up piles, read-only."""

    league_path = "table__season__league"
    editable = False
    list_display = ("__str__", "season", "started_at", "finished_at", "version")
    list_filter = (
        "table__season__league",
        "table__season",
        ("finished_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("table__name", "table__seats__user__username")
    list_select_related = ("table__season__league",)
    exclude = ("state",)
    inlines = [RoundScoreInline, TakenCardInline]

    @admin.display(description=_("season"), ordering="table__season")
    def season(self, game):
        return game.table.season or "—"


if not admin.site.is_registered(Game):
    admin.site.register(Game, GameAdmin)
