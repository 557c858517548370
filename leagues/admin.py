"""The Django admin of leagues: a club admin runs a whole season from here.

Staff only (the admin site's own rule). Superusers see everything; a league's admins
(`League.admins`) see and manage only their leagues' objects, whatever Django model
permissions they hold: being a league's admin is the permission.
"""

import copy
import logging

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import PlayerAdmin
from accounts.models import User
from games import kinds
from games.models import Game, RoundScore, Seat, Table, TakenCard, number_bots
from leagues import services, tasks
from leagues.admin_night import NightAdminMixin, date_warning
from leagues.admin_results import ResultsAdminMixin, lines_text, parse_lines
from leagues.models import (
    Evening,
    EveningTable,
    League,
    LeagueGame,
    Membership,
    Placing,
    PlayerRating,
    ResultChange,
    ScoreSheet,
    Season,
    SheetAnswer,
    Standing,
    StandingsRecompute,
    Tournament,
    TournamentTable,
    conservative,
    season_id_of,
    season_of,
)

log = logging.getLogger(__name__)


def deal_in_play(table: Table) -> bool:
    """True while a game dealt from this table's deal can still be played: its own game, or,
    in a duplicate round, any table dealt from the same `deal_seed`. Until then the deal's
    seed, snapshots, score sheets and piles stay out of the admin (hidden information)."""
    if table.status != Table.Status.FINISHED:
        return True
    if table.deal_seed is None:
        return False
    siblings = Table.objects.filter(deal_seed=table.deal_seed)
    return siblings.exclude(status=Table.Status.FINISHED).exists()


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

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        # The leagues they run, as a subquery: a join through League.admins would repeat
        # rows and make the changelist remove duplicates over the whole table.
        leagues = League.objects.filter(admins=request.user).values("pk")
        lookup = f"{self.league_path}__in" if self.league_path else "pk__in"
        return queryset.filter(**{lookup: leagues})

    def _in_scope(self, request, obj) -> bool:
        if request.user.is_superuser:
            return True
        if not administers_a_league(request):
            return False
        if obj is None:
            return True
        # A change page asks for each permission in turn: one query per object and request.
        checked = request.__dict__.setdefault("_league_scope", {})
        key = (self.model._meta.label, obj.pk)
        if key not in checked:
            checked[key] = self.get_queryset(request).filter(pk=obj.pk).exists()
        return checked[key]

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


class LeagueScopedFilter(admin.RelatedFieldListFilter):
    """A league or season list filter that lists only the leagues the admin runs, and their
    seasons: other leagues' names never show in a league admin's pages."""

    def field_choices(self, field, request, model_admin):
        if request.user.is_superuser:
            return super().field_choices(field, request, model_admin)
        if field.related_model is League:
            scope = Q(admins=request.user)
        elif field.related_model is Season:
            scope = Q(league__admins=request.user)
        else:
            raise TypeError(f"{field} is neither a league nor a season")
        ordering = self.field_admin_ordering(field, request, model_admin)
        return field.get_choices(include_blank=False, limit_choices_to=scope, ordering=ordering)


class PlayerSearch:
    """A changelist searched by its own `search_fields` or by a player's name.

    The players' rows are found through a subquery (`players_found`): a search through a
    join on every seat made the changelist remove duplicates row by row, in 0.2 to 0.4 s
    over a season of 10,000 games.
    """

    def players_found(self, players) -> Q:
        raise NotImplementedError

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if term:
            players = User.objects.filter(
                Q(username__icontains=term) | Q(display_name__icontains=term)
            ).values("pk")
            results = results | queryset.filter(self.players_found(players))
        return results, may_have_duplicates


def tables_of(players):
    return Seat.objects.filter(user__in=players).values("table_id")


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


def picks_league_admins(request) -> bool:
    """Is this the admin's autocomplete for a league's admins, asked by someone who may
    name them? (accounts.admin then lets it list players, the league's members only.)"""
    match = request.resolver_match
    return (
        match is not None
        and match.url_name == "autocomplete"
        and request.GET.get("app_label") == "leagues"
        and request.GET.get("model_name") == "league"
        and request.GET.get("field_name") == "admins"
        and (request.user.is_superuser or administers_a_league(request))
    )


def league_admin_candidates(request, users):
    """The players someone may name league admins: active members of the leagues they run.
    A site admin may name any player (who then becomes a member: a new league has none).
    The league's form then checks its own members."""
    if request.user.is_superuser:
        return users
    members = Membership.objects.filter(
        status=Membership.Status.ACTIVE, league__admins=request.user
    )
    return users.filter(pk__in=members.values("user_id"))


def memberships_url(league, status: str = "") -> str:
    """The memberships' list of one league (of one status): where its members are managed."""
    query = f"?league__id__exact={league.pk}"
    if status:
        query += f"&status__exact={status}"
    return reverse("admin:leagues_membership_changelist") + query


class LeagueForm(forms.ModelForm):
    # Set by LeagueAdmin.get_form for a site admin, who may name any player.
    names_anyone = False

    class Meta:
        help_texts = {
            # LeagueAdmin.save_related makes them staff; nothing takes it back.
            "admins": _(
                "Naming a player an admin makes them staff: they can then log in to this "
                "admin site, where they see only the leagues they run. Taken off the admins, "
                "they stay staff until a site admin withdraws it on their user page."
            ),
        }

    def clean_admins(self):
        """A league admin makes only the league's active members its admins (which makes
        them staff); a site admin names anyone, who becomes an active member
        (services.league_admins_join)."""
        admins = self.cleaned_data["admins"]
        if self.names_anyone:
            return admins
        before = {user.pk for user in self.initial.get("admins") or []}
        newcomers = [user for user in admins if user.pk not in before]
        members = set()
        if self.instance.pk is not None and newcomers:
            members = set(
                Membership.objects.filter(
                    league=self.instance,
                    user__in=newcomers,
                    status=Membership.Status.ACTIVE,
                ).values_list("user_id", flat=True)
            )
        outsiders = sorted(user.shown_name for user in newcomers if user.pk not in members)
        if outsiders:
            raise ValidationError(
                _("Only members of the league can be its admins. Not members: %(names)s."),
                code="not_member",
                params={"names": ", ".join(outsiders)},
            )
        return admins


@admin.register(League)
class LeagueAdmin(LeagueScopedAdmin):
    league_path = ""
    form = LeagueForm
    list_display = ("name", "slug", "is_public", "member_count", "waiting_count", "created_at")
    list_filter = ("is_public",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    # An autocomplete among members (accounts.admin, league_admin_candidates), never a
    # list of every player of the site.
    autocomplete_fields = ("admins",)
    readonly_fields = ("staff_admins", "members", "invite_link")
    fields = (
        "name",
        "slug",
        "description",
        "is_public",
        "admins",
        "staff_admins",
        "members",
        "invite_link",
    )
    # Members are managed on the memberships' own list, filtered by the league and paginated
    # (the `members` links): an inline drew every membership of the league, with a list of
    # every player of the site in each row.
    actions = ["new_invite_link"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.names_anyone = request.user.is_superuser
        return form

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return queryset.annotate(
            active_members=Count(
                "memberships", filter=Q(memberships__status=Membership.Status.ACTIVE)
            ),
            waiting_members=Count(
                "memberships", filter=Q(memberships__status=Membership.Status.PENDING)
            ),
        )

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    @admin.display(description=_("members"), ordering="active_members")
    def member_count(self, league):
        return league.active_members

    @admin.display(description=_("waiting to join"), ordering="waiting_members")
    def waiting_count(self, league):
        if not league.waiting_members:
            return 0
        return format_html(
            '<a href="{}">{}</a>',
            memberships_url(league, Membership.Status.PENDING),
            league.waiting_members,
        )

    @admin.display(description=_("members"))
    def members(self, league):
        if not league.pk:
            return "—"
        active = ngettext("%(n)d member", "%(n)d members", league.active_members) % {
            "n": league.active_members
        }
        waiting = ngettext(
            "%(n)d waiting to join", "%(n)d waiting to join", league.waiting_members
        ) % {"n": league.waiting_members}
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            memberships_url(league),
            active,
            memberships_url(league, Membership.Status.PENDING),
            waiting,
        )

    @admin.display(description=_("staff through this league"))
    def staff_admins(self, league):
        """The league's admins who may log in to the admin site (staff), as naming them
        made them: for the site admin, who sees there who holds staff through a league."""
        if not league.pk:
            return "—"
        staff = league.admins.filter(is_staff=True).order_by("username")
        return ", ".join(f"{user.shown_name} ({user.username})" for user in staff) or "—"

    def get_object(self, request, object_id, from_field=None):
        league = super().get_object(request, object_id, from_field)
        if league is not None:
            # The invitation link whole, as one pastes it in a mail (`invite_link`).
            league.invite_address = request.build_absolute_uri(league.get_invite_url())
        return league

    @admin.display(description=_("invitation link"))
    def invite_link(self, league):
        if not league.pk:
            return "—"
        return format_html("<code>{}</code>", league.invite_address)

    @admin.action(description=_("Make a new invitation link (the old one stops working)"))
    def new_invite_link(self, request, queryset):
        for league in queryset:
            services.league_new_invite_code(league=league)
            self.message_user(
                request,
                gettext("%(league)s: new invitation link %(link)s")
                % {"league": league, "link": request.build_absolute_uri(league.get_invite_url())},
                messages.SUCCESS,
            )

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A league's admins run it from here, so they need to be able to log in.
        form.instance.admins.filter(is_staff=False).update(is_staff=True)
        named, removed = self._admins_changed(form)
        for user in named:
            log.info(
                "league %s: %s made %s an admin", form.instance.pk, request.user.username, user
            )
        for user in removed:
            log.info(
                "league %s: %s removed %s from its admins",
                form.instance.pk,
                request.user.username,
                user,
            )

    def construct_change_message(self, request, form, formsets, add=False):
        """The league's history names who was made an admin, and who no longer is."""
        message = super().construct_change_message(request, form, formsets, add)
        named, removed = self._admins_changed(form)
        name = gettext_noop("league admin")
        message += [{"added": {"name": name, "object": str(user)}} for user in named]
        message += [{"deleted": {"name": name, "object": str(user)}} for user in removed]
        return message

    @staticmethod
    def _admins_changed(form):
        if "admins" not in form.cleaned_data:
            return [], []
        before = {user.pk: user for user in form.initial.get("admins") or []}
        after = {user.pk: user for user in form.cleaned_data["admins"]}
        named = [user for pk, user in after.items() if pk not in before]
        removed = [user for pk, user in before.items() if pk not in after]
        return named, removed


# The season's settings that its stored standings are computed with. (The ranking method and
# the games before being ranked apply when standings are read: changing them needs nothing.)
STANDINGS_SETTINGS = ("placement_points", "absence_score")
# Up to this many games, a season's standings are recomputed in the request that changed its
# settings (a few seconds at most); beyond, by a background `recompute_standings`.
RECOMPUTE_IN_REQUEST = 2000


def start_recompute(job: StandingsRecompute):
    """Queue this job's recompute for a worker (leagues/tasks.py). Queued in the request's
    transaction: a worker sees it with the new settings, and it is not lost if the web process
    stops right after the commit."""
    return tasks.recompute_standings.enqueue(job.pk)


@admin.register(Season)
class SeasonAdmin(LeagueScopedAdmin):
    list_display = (
        "name",
        "league",
        "kind",
        "starts_on",
        "ends_on",
        "ranking",
        "min_games",
        "closed",
    )
    list_filter = (("league", LeagueScopedFilter), "kind", "ranking", "closed")
    search_fields = ("name", "league__name")
    date_hierarchy = "starts_on"
    readonly_fields = ("standings_recompute",)
    actions = ["close_seasons", "recompute_standings"]

    def get_readonly_fields(self, request, obj=None):
        # A season's game is chosen once: its tables and results are of that game.
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and obj.pk and obj.league_games.exists():
            return (*fields, "kind")
        return fields

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and any(name in form.changed_data for name in STANDINGS_SETTINGS):
            self._recompute_after_change(request, obj)

    def _recompute_after_change(self, request, season):
        games = services.season_games(season=season)
        if games <= RECOMPUTE_IN_REQUEST:
            services.season_recompute(season=season)
            self.message_user(
                request,
                ngettext(
                    "Standings recomputed from %(n)d game with the new settings.",
                    "Standings recomputed from %(n)d games with the new settings.",
                    games,
                )
                % {"n": games},
                messages.SUCCESS,
            )
            return
        self._recompute_in_background(request, season, games)

    def _recompute_in_background(self, request, season, games):
        running = tasks.under_way(season)
        if running is not None:
            self.message_user(
                request,
                format_html(
                    '{}: <a href="{}">{}</a>',
                    season,
                    reverse("admin:leagues_season_change", args=[season.pk]),
                    gettext("a recompute of its standings is already under way."),
                ),
                messages.WARNING,
            )
            return
        job = StandingsRecompute.objects.create(season=season, games_total=games)
        start_recompute(job)
        self.message_user(
            request,
            format_html(
                '{}: <a href="{}">{}</a>',
                season,
                reverse("admin:leagues_season_change", args=[season.pk]),
                gettext(
                    "the standings of %(n)d games are being recomputed in the background: "
                    "its page shows how far it has got."
                )
                % {"n": games},
            ),
            messages.INFO,
        )

    @admin.display(description=_("standings recompute"))
    def standings_recompute(self, season):
        job = season.standings_recomputes.first() if season.pk else None
        if job is None:
            return "—"
        if job.error:
            return gettext("Failed: %(error)s") % {"error": job.error}
        if job.finished_at is not None:
            return gettext("Done at %(time)s, from %(n)d games.") % {
                "time": date_format(localtime(job.finished_at), "DATETIME_FORMAT"),
                "n": job.games_total,
            }
        if job.started_at is None:
            return gettext("Waiting to start (%(n)d games).") % {"n": job.games_total}
        if tasks.is_lost(job):
            return gettext(
                "Failed: its worker stopped before the end (started at %(time)s). "
                "Recompute the season again."
            ) % {"time": date_format(localtime(job.started_at), "DATETIME_FORMAT")}
        return gettext("Running: %(done)d of %(n)d games recomputed.") % {
            "done": job.games_done,
            "n": job.games_total,
        }

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
            games = services.season_games(season=season)
            if games > RECOMPUTE_IN_REQUEST:
                self._recompute_in_background(request, season, games)
                continue
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
    """A league's members, from its page's links: filtered by league and status, paginated."""

    list_display = ("user", "league", "status", "joined_at")
    list_filter = ("status", ("league", LeagueScopedFilter))
    search_fields = ("user__username", "user__display_name", "user__email", "league__name")
    list_select_related = ("user", "league")
    # Those waiting to join first.
    ordering = ("-status", "-joined_at")
    autocomplete_fields = ("user", "league")
    actions = ["approve"]

    def has_add_permission(self, request):
        # As in the league's page: players join by themselves, admins let them in.
        return request.user.is_superuser

    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser:
            return ()
        return ("user", "league")

    @admin.action(description=_("Approve the selected memberships"))
    def approve(self, request, queryset):
        count = services.membership_approve(memberships=list(queryset))
        self.message_user(
            request,
            ngettext("%(n)d player let in.", "%(n)d players let in.", count) % {"n": count},
            messages.SUCCESS,
        )


# --- tables ----------------------------------------------------------------------------------
# Tables in the Django admin: see every table and its seats, free a stuck one. Here rather
# than in games/admin.py because a league's admins see their leagues' tables (the same
# scoping as the league pages), and games does not depend on leagues.


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot_name", "away")
    readonly_fields = ("position", "user", "bot_name")
    can_delete = False

    @admin.display(description=_("bot"))
    def bot_name(self, seat):
        return kinds.bot_label(seat.bot) if seat.bot else ""


class TableForm(forms.ModelForm):
    """A table's fields, and the season it counts in (leagues' LeagueTable, saved by
    TableAdmin.save_model)."""

    season = forms.ModelChoiceField(
        label=_("season"), queryset=Season.objects.select_related("league"), required=False
    )

    class Meta:
        model = Table
        fields = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "season" in self.fields and self.instance.pk is not None:
            self.initial.setdefault("season", season_id_of(self.instance))


@admin.register(Table)
class TableAdmin(PlayerSearch, LeagueScopedAdmin):
    league_path = "league_table__season__league"
    form = TableForm
    list_display = (
        "__str__",
        "kind",
        "status",
        "seats_count",
        "created_by",
        "season",
        "is_public",
        "created_at",
    )
    list_filter = (
        "status",
        "kind",
        "is_public",
        ("league_table__season", LeagueScopedFilter),
    )
    search_fields = ("name",)
    date_hierarchy = "created_at"
    show_full_result_count = False
    list_per_page = 50
    readonly_fields = (
        "kind",
        "created_by",
        "created_at",
        "seats_count",
        "options",
        "time_limit",
        "invite_code",
        "status",
    )
    fields = (
        "name",
        "kind",
        "status",
        "created_by",
        "created_at",
        "seats_count",
        "options",
        "time_limit",
        "is_public",
        "show_played",
        "season",
        "invite_code",
    )
    inlines = [SeatInline]
    list_select_related = ("created_by", "league_table__season__league")

    def players_found(self, players):
        return Q(pk__in=tables_of(players))

    @admin.display(description=_("season"), ordering="league_table__season")
    def season(self, table):
        return season_of(table)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if "season" in form.base_fields and not request.user.is_superuser:
            # A field of its own for this form class: the declared one is shared by all.
            field = copy.deepcopy(form.base_fields["season"])
            field.queryset = field.queryset.filter(league__admins=request.user)
            form.base_fields["season"] = field
        return form

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "season" in form.changed_data:
            services.table_season_set(table=obj, season=form.cleaned_data["season"])

    def get_fields(self, request, obj=None):
        # The deal's seed rebuilds every hand: shown only once no game dealt from it can
        # still be played (this table's, or another table's of its duplicate round).
        if obj is not None and obj.deal_seed is not None and not deal_in_play(obj):
            return self.fields + ("deal_seed",)
        return self.fields

    def get_readonly_fields(self, request, obj=None):
        readonly = self.readonly_fields + ("deal_seed",)
        if obj is not None and obj.status == Table.Status.FINISHED:
            # Its result is in its season's standings: moving it would take it out of both
            # seasons' standings. Corrections have their own flow.
            readonly += ("season",)
        return readonly

    def has_delete_permission(self, request, obj=None):
        # A finished league table is a result of its season.
        if obj is not None and obj.status == Table.Status.FINISHED and season_id_of(obj):
            return False
        return super().has_delete_permission(request, obj)

    def has_add_permission(self, request):
        # Tables are opened from the lobby or by a seating (leagues), never empty-handed here.
        return False


# --- evenings and tournaments -----------------------------------------------------------------


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
    list_display = ("__str__", "season", "date", "place", "player_count")
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
    list_display = ("name", "season", "date", "rounds", "seating", "duplicate", "player_count")
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


# --- what the league keeps of games (read-only: recompute instead of editing) -------------------


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
        if games <= RECOMPUTE_IN_REQUEST:
            services.season_recompute(season=season)
            self.message_user(request, gettext("The standings are recomputed."), messages.INFO)
            return
        job = StandingsRecompute.objects.create(season=season, games_total=games)
        start_recompute(job)
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


# --- games played with real cards, and changes of results -----------------------------------------


class SheetAnswerInline(ReadOnlyInline):
    model = SheetAnswer
    fields = ("user", "confirmed", "reason", "answered_at")
    readonly_fields = fields


class ScoreSheetForm(forms.ModelForm):
    lines_written = forms.CharField(
        label=_("Score sheet"),
        widget=forms.Textarea(attrs={"rows": 8, "cols": 40}),
        help_text=_(
            "One line per round (or hand), one number per player in seat order, in the "
            "game's unit (heads or points). "
            "Saving a change asks the players to confirm again; a confirmed sheet is "
            "corrected from its league game."
        ),
    )

    class Meta:
        model = ScoreSheet
        fields = ()

    def clean_lines_written(self):
        try:
            return parse_lines(self.cleaned_data["lines_written"])
        except ValueError:
            raise ValidationError(_("Write whole numbers separated by spaces.")) from None


@admin.register(ScoreSheet)
class ScoreSheetAdmin(LeagueScopedAdmin):
    """Sheets of games played with real cards: a disputed one waits here for the league
    admin, who writes it again (its players answer anew) or confirms it for all."""

    league_path = "season__league"
    list_display = ("table", "season", "played_on", "status", "entered_by", "entered_at")
    list_filter = ("status", ("season", LeagueScopedFilter))
    list_select_related = ("table", "season__league", "entered_by")
    search_fields = ("table__name",)
    fields = ("table", "season", "played_on", "status", "entered_by", "lines_written")
    readonly_fields = ("table", "season", "played_on", "status", "entered_by")
    form = ScoreSheetForm
    inlines = [SheetAnswerInline]
    actions = ["confirm_for_all"]

    def has_add_permission(self, request):
        return False  # entered on the league's page, where the grid fits a phone

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        field = form.base_fields["lines_written"]
        field.initial = lines_text(obj.lines) if obj else ""
        field.disabled = obj is not None and obj.status == ScoreSheet.Status.CONFIRMED
        return form

    def save_model(self, request, obj, form, change):
        if "lines_written" not in form.changed_data:
            return
        try:
            services.sheet_fix(
                sheet=obj, user=request.user, lines=form.cleaned_data["lines_written"]
            )
        except services.LeagueError as error:
            self.message_user(request, error.message, messages.ERROR)

    @admin.action(description=_("Confirm the selected sheets for all their players"))
    def confirm_for_all(self, request, queryset):
        done = 0
        for sheet in queryset:
            try:
                services.sheet_confirm_all(sheet=sheet, user=request.user)
                done += 1
            except services.LeagueError as error:
                self.message_user(request, f"{sheet}: {error.message}", messages.ERROR)
        self.message_user(
            request,
            ngettext("%(n)d sheet confirmed.", "%(n)d sheets confirmed.", done) % {"n": done},
            messages.SUCCESS,
        )


@admin.register(ResultChange)
class ResultChangeAdmin(LeagueScopedAdmin):
    """Every correction and void of a finished result: who, when, why, before and after."""

    league_path = "game__table__league_table__season__league"
    editable = False
    list_display = ("game", "action", "changed_by", "changed_at", "reason")
    list_filter = ("action",)
    list_select_related = ("game__table", "changed_by")
    search_fields = ("game__table__name", "reason")


class LeaguePlayerAdmin(PlayerAdmin):
    """The users admin, as league admins use it too: they pick co-admins among their
    members through its autocomplete (LeagueAdmin's `admins`), and see no player
    otherwise. Registered here, since accounts knows no league."""

    def has_view_permission(self, request, obj=None):
        if obj is None and picks_league_admins(request):
            return True
        return super().has_view_permission(request, obj)

    def get_search_results(self, request, queryset, search_term):
        queryset, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if picks_league_admins(request):
            queryset = league_admin_candidates(request, queryset)
        return queryset, may_have_duplicates


admin.site.unregister(User)
admin.site.register(User, LeaguePlayerAdmin)
