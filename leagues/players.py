"""Reads of a player's page (leagues.profile): her games of each game, their figures, her
site rating and its history, her best and worst games, her tables in play, her leagues, and
how she fares against another player.

A game is a finished game (one with a result) at which the player held a seat, played here
or on paper; a voided league game is none. A table that never finished is not a game.

The secrecy rule holds for the viewer throughout: figures count only the games shown to
the viewer (games.selectors.shown_to), and only the games listed to the viewer
(games.selectors.listed_to) are named.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import BooleanField, Count, ExpressionWrapper, F, OuterRef, Q, Subquery
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games import kinds
from games.models import Seat, Table, TakenCard
from games.selectors import listed_to, shown_to
from leagues import scoring
from leagues.models import Membership, RatedGame, ScoreSheet, SiteRating, conservative
from leagues.ratings import new_until
from leagues.selectors import current_season, league_visible, season_standings

# How many of a game's games the page lists, and how many points its rating chart draws.
RECENT = 10
BEST = 3
HISTORY = 100
# The rating chart is drawn from this many rated games on.
CHART_FROM = 3


@dataclass
class GameLine:
    """One of the player's finished games, as her page shows it."""

    game_id: int
    table_id: int
    label: str
    kind: str
    finished_at: datetime
    # The player's total, the game's rounds, the table's seats (bots included).
    score: int
    rounds: int
    players: int
    # Her place among all the seats (ties share it: 1, 1, 3).
    place: int
    # Her total against the table's mean, per round, the better the smaller.
    behind: float
    # The game may be named to the viewer (listed_to).
    listed: bool
    rating_change: str | None = None

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def order(self) -> tuple:
        """Best game first: by place, then by the score against the table's."""
        return (self.place, self.behind, -self.finished_at.timestamp())


def _line(row: dict, position: int, higher_wins: bool) -> GameLine | None:
    """The line of the seat at `position` of a finished game's row, or None if its result
    has no score for that seat."""
    result = row["result"] or {}
    totals = result.get("totals") or []
    if position >= len(totals):
        return None
    rounds = max(1, len(result.get("rounds") or ()))
    score = totals[position]
    mean = sum(totals) / len(totals)
    sign = -1 if higher_wins else 1
    return GameLine(
        game_id=row["game_id"],
        table_id=row["table_id"],
        label=row["name"] or _("Table %(id)s") % {"id": row["table_id"]},
        kind=row["kind"],
        finished_at=row["finished_at"],
        score=score,
        rounds=rounds,
        players=len(totals),
        place=scoring.places(totals, higher_wins)[position],
        behind=sign * (score - mean) / rounds,
        listed=row["listed"],
    )


def finished_seats(player, viewer):
    """The player's seats at finished games shown to `viewer`, newest first, with whether
    each game may be named to the viewer (`listed`)."""
    return (
        Seat.objects.filter(
            user=player, table__game__finished_at__isnull=False, table__game__result__isnull=False
        )
        .exclude(table__game__league_entry__void=True)
        .filter(shown_to(viewer))
        .annotate(listed=ExpressionWrapper(listed_to(viewer), output_field=BooleanField()))
        .order_by("-table__game__finished_at", "-table_id")
    )


_NAMES = ("position", "table_id", "listed")
_FIELDS = {
    "game_id": F("table__game__id"),
    "name": F("table__name"),
    "kind": F("table__kind"),
    "finished_at": F("table__game__finished_at"),
    "result": F("table__game__result"),
}


def player_lines(player, viewer) -> dict[str, list[GameLine]]:
    """The player's games shown to `viewer`, newest first, by game (Table.kind)."""
    found = defaultdict(list)
    for row in finished_seats(player, viewer).values(*_NAMES, **_FIELDS):
        kind = kinds.get(row["kind"])
        line = _line(row, row["position"], kind.higher_wins)
        if line is not None:
            found[row["kind"]].append(line)
    return found


def best_and_worst(lines: list[GameLine]) -> tuple[list[GameLine], list[GameLine]]:
    """At most BEST best and BEST worst of the games named to the viewer, none in both,
    and none before two games: best first, worst first."""
    named = sorted((line for line in lines if line.listed), key=lambda line: line.order)
    if len(named) < 2:
        return [], []
    best = named[: min(BEST, (len(named) + 1) // 2)]
    worst = named[len(best) :][::-1][:BEST]
    return best, worst


def signed(delta: float) -> str:
    """A rating change as players read it, in their language: +1.2, −0.8 (a true minus
    sign), +0.0 for less than a twentieth."""
    delta = round(delta, 1)
    return ("−" if delta < 0 else "+") + number_format(abs(delta), 1)


def _rating_changes(player, lines: list[GameLine]) -> None:
    """Set the move of the player's site rating on each of `lines` that was rated."""
    rated = RatedGame.objects.filter(user=player, game_id__in=[line.game_id for line in lines])
    moves = {r.game_id: signed(r.rating - r.rating_before) for r in rated}
    for line in lines:
        line.rating_change = moves.get(line.game_id)


def rating_history(player, kind: str, viewer) -> list[tuple[datetime, float]]:
    """(finished at, site rating after it) of the player's latest rated games of `kind`
    shown to `viewer`, oldest first."""
    rows = (
        RatedGame.objects.filter(user=player, kind=kind)
        .filter(shown_to(viewer, "game__table"))
        .order_by("-finished_at", "-pk")
        .values_list("finished_at", "mu", "sigma")[:HISTORY]
    )
    return [(at, conservative(mu, sigma)) for at, mu, sigma in reversed(rows)]


def game_figures(*, kind, lines: list[GameLine], rating, history) -> dict:
    """What the player's page says of her games of one game (a Kind): `lines` are her games
    of it shown to the viewer, newest first; `rating` her SiteRating in it, if any."""
    played = len(lines)
    wins = sum(line.won for line in lines)
    rounds = sum(line.rounds for line in lines)
    rated = rating.games if rating is not None else 0
    best, worst = best_and_worst(lines)
    recent = [line for line in lines if line.listed][:RECENT]
    return {
        "kind": kind,
        "played": played,
        "wins": wins,
        "win_rate": round(100 * wins / played) if played else 0,
        "per_round": sum(line.score for line in lines) / rounds if rounds else 0.0,
        "rating": rating,
        "new": rated < new_until(),
        "to_be_rated": max(0, new_until() - rated),
        "history": [value for _at, value in history],
        "history_from": history[0][0] if history else None,
        "history_to": history[-1][0] if history else None,
        "chart": len(history) >= CHART_FROM,
        "chart_from": CHART_FROM,
        "recent": recent,
        "best_games": best,
        "worst_games": worst,
    }


def player_cards_taken(*, player, kind: str, viewer=None, limit: int = 8) -> list[dict]:
    """The cards of game `kind` the player picked up most often, over their games shown to
    `viewer` (games.selectors.shown_to: not those whose deal another table still plays, as
    a duplicate round's piles are the hands dealt)."""
    return list(
        TakenCard.objects.filter(
            game__table__kind=kind,
            game__table__seats__user=player,
            game__table__seats__position=F("seat"),
        )
        .filter(shown_to(viewer, "game__table"))
        .values("card", "heads")
        .annotate(times=Count("id"))
        .order_by("-times", "card")[:limit]
    )


def playing_now(player, viewer, limit: int = 10) -> list[Table]:
    """The tables the player sits at whose game is under way, of those listed to `viewer`:
    not games yet."""
    seats = (
        Seat.objects.filter(user=player, table__status=Table.Status.PLAYING)
        .filter(listed_to(viewer))
        .select_related("table")
        .order_by("-table__created_at")[:limit]
    )
    return [seat.table for seat in seats]


def player_leagues(*, player, viewer) -> list[dict]:
    """The player's leagues the viewer may see, with their place in the current season."""
    memberships = (
        Membership.objects.filter(user=player, status=Membership.Status.ACTIVE)
        .select_related("league")
        .prefetch_related("league__seasons")
        .order_by("league__name")
    )
    found = []
    for membership in memberships:
        league = membership.league
        if not league_visible(league, viewer):
            continue
        season = current_season(list(league.seasons.all()))
        row, ranked = None, 0
        if season is not None:
            standings = season_standings(season=season)
            row = next((r for r in standings if r.user.pk == player.pk), None)
            ranked = sum(r.rank is not None for r in standings)
        found.append({"league": league, "season": season, "row": row, "ranked": ranked})
    return found


def sheets_awaiting(user):
    """The score sheets of games the player played that wait for their answer."""
    return (
        ScoreSheet.objects.filter(
            table__seats__user=user,
            status__in=[ScoreSheet.Status.PENDING, ScoreSheet.Status.DISPUTED],
        )
        .exclude(answers__user=user)
        .select_related("season__league", "table")
        .order_by("-entered_at")
    )


def opponents(player, viewer, limit: int = 300) -> list:
    """The other humans who held a seat at a game of the player's shown to `viewer`, by
    name: whom the page offers to compare her with."""
    tables = finished_seats(player, viewer).values("table_id")
    users = (
        Seat.objects.filter(table_id__in=tables, user__isnull=False, bot="")
        .exclude(user=player)
        .values("user")
    )
    found = get_user_model().objects.filter(pk__in=users, is_active=True)[:limit]
    return sorted(found, key=lambda user: user.shown_name.casefold())


def find_player(name: str):
    """The active player called `name`: by username, else by a display name only one has."""
    users = get_user_model().objects.filter(is_active=True)
    found = users.filter(username__iexact=name).first()
    if found is None:
        named = list(users.filter(display_name__iexact=name)[:2])
        found = named[0] if len(named) == 1 else None
    return found


def head_to_head(*, player, other, viewer) -> list[dict]:
    """How `player` and `other` fared at the finished games where both held a seat, shown
    to `viewer`, by game: how many, in how many each finished ahead (a better place) or
    level, and the latest of them named to the viewer."""
    other_seat = Seat.objects.filter(table_id=OuterRef("table_id"), user=other).values("position")[
        :1
    ]
    rows = (
        finished_seats(player, viewer)
        .filter(Q(table__seats__user=other))
        .annotate(other_position=Subquery(other_seat))
        .values(*_NAMES, "other_position", **_FIELDS)
    )
    by_kind = defaultdict(list)
    for row in rows:
        kind = kinds.get(row["kind"])
        mine = _line(row, row["position"], kind.higher_wins)
        theirs = _line(row, row["other_position"], kind.higher_wins)
        if mine is not None and theirs is not None:
            by_kind[row["kind"]].append((mine, theirs))
    found = []
    for kind in kinds.registered():
        pairs = by_kind.get(kind.name)
        if not pairs:
            continue
        found.append(
            {
                "kind": kind,
                "games": len(pairs),
                "ahead": sum(mine.place < theirs.place for mine, theirs in pairs),
                "behind": sum(mine.place > theirs.place for mine, theirs in pairs),
                "level": sum(mine.place == theirs.place for mine, theirs in pairs),
                "latest": [
                    {"mine": mine, "theirs": theirs} for mine, theirs in pairs if mine.listed
                ][:RECENT],
            }
        )
    return found


def player_profile(*, player, viewer) -> dict:
    """Everything a player's page shows (leagues.profile.profile) but the head to head:
    for each game she has played, its figures; her tables in play; her leagues; and, on
    her own page, the score sheets waiting for her."""
    lines = player_lines(player, viewer)
    ratings = {rating.kind: rating for rating in SiteRating.objects.filter(user=player)}
    sections = []
    for kind in kinds.registered():
        own = lines.get(kind.name)
        if not own:
            continue
        figures = game_figures(
            kind=kind,
            lines=own,
            rating=ratings.get(kind.name),
            history=rating_history(player, kind.name, viewer),
        )
        _rating_changes(player, figures["recent"] + figures["best_games"] + figures["worst_games"])
        figures["cards_taken"] = player_cards_taken(player=player, kind=kind.name, viewer=viewer)
        sections.append(figures)
    return {
        "game_figures": sections,
        "playing_now": playing_now(player, viewer),
        "league_rows": player_leagues(player=player, viewer=viewer),
        # Only the player sees the sheets waiting for them (on their own page).
        "sheets_awaiting": list(sheets_awaiting(player)) if viewer == player else [],
        "opponents": opponents(player, viewer),
    }
