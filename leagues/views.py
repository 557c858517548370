import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from leagues import selectors, services
from leagues.models import Evening, League, Membership, Season, Tournament

COLUMNS = [
    ("rank", gettext_lazy("Rank")),
    ("player", gettext_lazy("Player")),
    ("games", gettext_lazy("Games")),
    ("rounds", gettext_lazy("Rounds")),
    ("heads", gettext_lazy("Heads")),
    ("mean", gettext_lazy("Heads per round")),
    ("wins", gettext_lazy("Wins")),
    ("win_rate", gettext_lazy("Win rate")),
    ("points", gettext_lazy("Points")),
    ("mean_points", gettext_lazy("Points per game")),
    ("best", gettext_lazy("Best results")),
    ("rating", gettext_lazy("Rating")),
    ("last_played", gettext_lazy("Last played")),
]


def league_list(request):
    leagues = selectors.leagues_for(request.user).order_by("name")
    return render(request, "leagues/league_list.html", {"leagues": leagues})


def _league_and_status(request, slug) -> tuple[League, str | None]:
    league = get_object_or_404(League, slug=slug)
    status = selectors.membership_status(league, request.user)
    return league, status


def _chosen_season(request, seasons: list[Season]) -> Season | None:
    wanted = request.GET.get("season", "")
    chosen = next((s for s in seasons if str(s.pk) == wanted), None)
    return chosen or selectors.current_season(seasons)


def _chosen_sort(request) -> tuple[str, bool | None]:
    sort = request.GET.get("sort", "rank")
    if sort not in selectors.SORTS:
        sort = "rank"
    order = request.GET.get("order")
    return sort, {"asc": False, "desc": True}.get(order)


# The column a ranking method ranks by: a phone shows it (and rank, player, games) only.
DECIDING_COLUMN = {
    Season.Ranking.MEAN_HEADS: "mean",
    Season.Ranking.TOTAL_HEADS: "heads",
    Season.Ranking.PLACEMENT: "points",
    Season.Ranking.MEAN_PLACEMENT: "mean_points",
    Season.Ranking.BEST_RESULTS: "best",
    Season.Ranking.RATING: "rating",
}
# Columns shown only where the season ranks by them (or, placement points, by one of the
# methods made of them).
RANKING_COLUMNS = {
    "points": {
        Season.Ranking.PLACEMENT,
        Season.Ranking.MEAN_PLACEMENT,
        Season.Ranking.BEST_RESULTS,
    },
    "mean_points": {Season.Ranking.MEAN_PLACEMENT},
    "best": {Season.Ranking.BEST_RESULTS},
}
MAJOR_COLUMNS = {"rank", "player", "games"}


def minor_columns(season: Season) -> set[str]:
    """The standings' columns a phone leaves out: all but the rank, the player, the games
    and the column that decides the rank."""
    major = MAJOR_COLUMNS | {DECIDING_COLUMN.get(season.ranking, "mean")}
    return {key for key, _label in COLUMNS if key not in major}


def _chosen_month(request, months: list):
    """The month of the season whose sub-ranking is asked for (?month=2026-11), or None."""
    wanted = request.GET.get("month", "")
    return next((m for m in months if m.strftime("%Y-%m") == wanted), None)


def _columns(season: Season, sort: str, descending: bool | None, month=None) -> list[dict]:
    """Header links: a click sorts by a column, best first; a second click reverses."""
    minor = minor_columns(season)
    natural_order = selectors.sorts(season)
    # The game's own words for its score (heads, or points per hand).
    labels = {"heads": season.game.score_label, "mean": season.game.per_round_label}
    columns = []
    for key, label in COLUMNS:
        label = labels.get(key, label)
        if key in RANKING_COLUMNS and season.ranking not in RANKING_COLUMNS[key]:
            continue
        natural = natural_order[key]
        current = key == sort
        shown_descending = (natural if descending is None else descending) if current else None
        next_descending = (not shown_descending) if current else natural
        query = {"season": season.pk, "sort": key, "order": "desc" if next_descending else "asc"}
        if month is not None:
            query["month"] = month.strftime("%Y-%m")
        columns.append(
            {
                "key": key,
                "label": label,
                "href": "?" + urlencode(query),
                "current": current,
                "aria": ("descending" if shown_descending else "ascending") if current else "",
                "num": key not in ("player", "last_played"),
                "minor": key in minor,
            }
        )
    return columns


def league(request, slug):
    league, status = _league_and_status(request, slug)
    is_admin = league.is_admin(request.user)
    visible = league.is_public or status == Membership.Status.ACTIVE or is_admin
    seasons = list(league.seasons.all())
    season = _chosen_season(request, seasons)
    sort, descending = _chosen_sort(request)
    context = {
        "league": league,
        "status": status,
        "visible": visible,
        "is_admin": is_admin,
        # Its admins see who waits to join, and let them in from here.
        "waiting": selectors.league_waiting(league) if is_admin else [],
        "seasons": seasons,
        "season": season,
        "rows": [],
        "me": request.user.pk,
        # Player pages are /players/<username>/: one reverse() rather than one a row.
        "profiles": reverse("profile", args=["-"]).removesuffix("-/"),
    }
    if visible and season is not None:
        months = selectors.season_months(season)
        month = _chosen_month(request, months)
        rows = selectors.season_standings(
            season=season, sort=sort, descending=descending, month=month
        )
        context.update(
            {
                "rows": rows,
                "months": months,
                "month": month,
                "columns": _columns(season, sort, descending, month),
                "minor": minor_columns(season),
                "tournaments": list(season.tournaments.all()),
                "evenings": list(season.evenings.all()[:10]),
            }
        )
    return render(request, "leagues/league.html", context)


# A spreadsheet reads a cell starting with one of these as a formula (OWASP: CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _as_text(value: str) -> str:
    """A cell of a player's own text (a name), which a spreadsheet must show, not run:
    quoted with a leading apostrophe when it starts like a formula. Our own figures are
    not passed here: a negative rating stays a number."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def standings_csv(request, slug):
    league, status = _league_and_status(request, slug)
    if not selectors.league_visible(league, request.user, status):
        raise Http404
    season = _chosen_season(request, list(league.seasons.all()))
    if season is None:
        raise Http404
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{league.slug}-standings-{season.pk}.csv"'
    )
    writer = csv.writer(response)
    writer.writerow(
        [
            _("rank"),
            _("player"),
            _("username"),
            _("games"),
            _("rounds"),
            str(season.game.score_label).lower(),
            str(season.game.per_round_label).lower(),
            _("wins"),
            _("win rate"),
            _("placement points"),
            _("placement points per game"),
            _("best results"),
            _("rating"),
            "mu",
            "sigma",
            _("last played"),
        ]
    )
    month = _chosen_month(request, selectors.season_months(season))
    for row in selectors.season_standings(season=season, month=month):
        writer.writerow(
            [
                row.rank or "",
                _as_text(row.player),
                _as_text(row.user.username),
                row.games,
                row.rounds,
                row.heads,
                f"{row.mean:.3f}",
                row.wins,
                f"{row.win_rate:.3f}",
                row.points,
                f"{row.mean_points:.3f}",
                row.best if season.ranking == Season.Ranking.BEST_RESULTS else "",
                f"{row.rating:.2f}",
                f"{row.standing.mu:.4f}",
                f"{row.standing.sigma:.4f}",
                row.last_played.isoformat() if row.last_played else "",
            ]
        )
    return response


@login_required
@require_POST
def join(request, slug):
    league = get_object_or_404(League, slug=slug)
    membership = services.membership_request(league=league, user=request.user)
    if membership.status == Membership.Status.ACTIVE:
        messages.success(request, _("You are a member of %(league)s.") % {"league": league})
    else:
        messages.success(
            request,
            _("Your request to join %(league)s is waiting for its admins.") % {"league": league},
        )
    return redirect(league)


@login_required
@require_POST
def approve(request, slug, pk):
    """A league's admin lets in a player who asked to join."""
    league = get_object_or_404(League, slug=slug)
    if not league.is_admin(request.user):
        raise PermissionDenied
    membership = get_object_or_404(league.memberships.select_related("user"), pk=pk)
    if services.membership_approve(memberships=[membership]):
        messages.success(
            request,
            _("%(player)s is a member of %(league)s.")
            % {"player": membership.user.shown_name, "league": league},
        )
    return redirect(league)


@login_required
@require_POST
def leave(request, slug):
    league = get_object_or_404(League, slug=slug)
    services.membership_leave(league=league, user=request.user)
    messages.success(request, _("You left %(league)s.") % {"league": league})
    return redirect(league)


@login_required
def invite(request, code):
    league = get_object_or_404(League, invite_code=code)
    if request.method == "POST":
        services.membership_request(league=league, user=request.user, invite_code=code)
        messages.success(request, _("Welcome to %(league)s!") % {"league": league})
        return redirect(league)
    status = selectors.membership_status(league, request.user)
    return render(request, "leagues/invite.html", {"league": league, "status": status})


def _event_or_404(request, slug, model, pk):
    league, status = _league_and_status(request, slug)
    if not selectors.league_visible(league, request.user, status):
        raise Http404
    event = get_object_or_404(model.objects.select_related("season__league"), pk=pk)
    if event.season.league_id != league.pk:
        raise Http404
    return league, event


def tournament(request, slug, pk):
    league, event = _event_or_404(request, slug, Tournament, pk)
    registrations = list(event.registrations.select_related("user"))
    present = set(event.players.values_list("pk", flat=True))
    context = {
        "league": league,
        "event": event,
        "rows": selectors.tournament_standings(tournament=event),
        "rounds": selectors.event_rounds(event),
        "registrations": [(r.user, r.user_id in present) for r in registrations],
        "registered": any(r.user_id == request.user.pk for r in registrations),
        "checked_in": request.user.pk in present,
        "member": selectors.membership_status(league, request.user) == Membership.Status.ACTIVE,
    }
    return render(request, "leagues/tournament.html", context)


@login_required
@require_POST
def tournament_registration(request, slug, pk):
    """Register for a tournament, or withdraw ("withdraw" posted)."""
    league, event = _event_or_404(request, slug, Tournament, pk)
    try:
        if request.POST.get("withdraw"):
            services.tournament_withdraw(tournament=event, user=request.user)
            messages.success(request, _("You are no longer registered."))
        else:
            services.tournament_register(tournament=event, user=request.user)
            messages.success(request, _("You are registered. Check in with the organiser."))
    except services.LeagueError as error:
        messages.error(request, error.message)
    return redirect(event.get_absolute_url())


def evening(request, slug, pk):
    league, event = _event_or_404(request, slug, Evening, pk)
    context = {
        "league": league,
        "event": event,
        "players": sorted(event.players.all(), key=lambda u: u.shown_name.casefold()),
        "rounds": selectors.event_rounds(event),
    }
    return render(request, "leagues/evening.html", context)
