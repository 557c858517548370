"""Leagues, seasons and memberships in the admin; the users' admin as league admins use it
(picking co-admins among their members)."""

import logging

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import PlayerAdmin
from accounts.models import User
from leagues import services, tasks
from leagues.admin.base import (
    LeagueScopedAdmin,
    LeagueScopedFilter,
    administers_a_league,
)
from leagues.models import (
    League,
    Membership,
    Season,
)

log = logging.getLogger(__name__)


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
            league.get_members_admin_url(Membership.Status.PENDING),
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
            league.get_members_admin_url(),
            active,
            league.get_members_admin_url(Membership.Status.PENDING),
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
    list_filter = (
        ("league", LeagueScopedFilter),
        "kind",
        "ranking",
        "closed",
        "allow_turn_based",
    )
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
        if games <= settings.SIXCLUB_RECOMPUTE_IN_REQUEST:
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
        tasks.start_recompute(season, games)
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
            if games > settings.SIXCLUB_RECOMPUTE_IN_REQUEST:
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
