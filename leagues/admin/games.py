"""What the league keeps of games, read-only (recompute instead of editing): league games
with their placings, standings, ratings, and the games themselves."""

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, RoundScore, TakenCard
from leagues import services, tasks
from leagues.admin.base import (
    LeagueScopedAdmin,
    LeagueScopedFilter,
    PlayerSearch,
    ReadOnlyInline,
    deal_in_play,
    tables_of,
)
from leagues.admin.results import ResultsAdminMixin
from leagues.models import (
    LeagueGame,
    Placing,
    PlayerRating,
    Standing,
    conservative,
    season_of,
)


class PlacingInline(ReadOnlyInline):
    model = Placing
    fields = ("user", "seat", "heads", "rounds", "place", "won", "points", "season_rating")
    readonly_fields = fields

    @admin.display(description=_("rating in the season"))
    def season_rating(self, placing):
        """The rating the standings show after this game (μ − 3σ), not its two floats."""
        return f"{conservative(placing.mu, placing.sigma):.1f}"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


@admin.register(LeagueGame)
class LeagueGameAdmin(ResultsAdminMixin, PlayerSearch, LeagueScopedAdmin):
    league_path = "season__league"
    editable = False
    list_display = ("game", "season", "finished_at", "void")
    list_filter = (
        ("season__league", LeagueScopedFilter),
        ("season", LeagueScopedFilter),
        "void",
    )
    search_fields = ("game__table__name",)
    list_select_related = ("season__league", "game__table")
    show_full_result_count = False
    list_per_page = 50
    inlines = [PlacingInline]

    def players_found(self, players):
        return Q(pk__in=Placing.objects.filter(user__in=players).values("entry_id"))

    def recompute_season(self, request, season):
        games = services.season_games(season=season)
        if games <= settings.SIXCLUB_RECOMPUTE_IN_REQUEST:
            services.season_recompute(season=season)
            self.message_user(request, gettext("The standings are recomputed."), messages.INFO)
            return
        tasks.start_recompute(season, games)
        self.message_user(
            request,
            gettext("The standings are being recomputed in the background (see the season)."),
            messages.INFO,
        )


@admin.register(Standing)
class StandingAdmin(LeagueScopedAdmin):
    league_path = "season__league"
    editable = False
    list_display = ("user", "season", "games", "rounds", "heads", "wins", "points", "shown_rating")
    list_filter = (("season__league", LeagueScopedFilter), ("season", LeagueScopedFilter))
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user", "season__league")

    @admin.display(description=_("rating"))
    def shown_rating(self, standing):
        return f"{standing.rating:.1f}"


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "games", "mu", "sigma")
    list_filter = ("kind",)
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


class GameAdmin(PlayerSearch, LeagueScopedAdmin):
    """Games with their score sheets and picked-up piles, read-only.

    While a game dealt from the same deal can still be played (this one, or another table
    of its duplicate round), its seed and result stay hidden from everyone, and its score
    sheet and piles from everyone below site admin: they would tell the deal.
    The engine snapshot (`state`) is never shown: the game's record tells everything.
    """

    league_path = "table__league_table__season__league"
    editable = False
    list_display = ("__str__", "season", "started_at", "finished_at", "version")
    list_filter = (
        ("table__league_table__season__league", LeagueScopedFilter),
        ("table__league_table__season", LeagueScopedFilter),
        ("finished_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("table__name",)
    list_select_related = ("table__league_table__season__league",)
    show_full_result_count = False
    list_per_page = 50
    exclude = ("state",)
    inlines = [RoundScoreInline, TakenCardInline]
    public_fields = ("table", "version", "started_at", "deadline", "finished_at")
    secret_fields = ("seed", "result")

    def get_fields(self, request, obj=None):
        if obj is None or deal_in_play(obj.table):
            return self.public_fields
        return self.public_fields + self.secret_fields

    def get_inlines(self, request, obj):
        if obj is None or (deal_in_play(obj.table) and not request.user.is_superuser):
            return []
        return super().get_inlines(request, obj)

    def get_queryset(self, request):
        # The engine snapshot is never shown, and is the bulk of a game's row.
        return super().get_queryset(request).defer("state")

    def players_found(self, players):
        return Q(table__in=tables_of(players))

    @admin.display(description=_("season"), ordering="table__league_table__season")
    def season(self, game):
        return season_of(game.table) or "—"


if not admin.site.is_registered(Game):
    admin.site.register(Game, GameAdmin)
