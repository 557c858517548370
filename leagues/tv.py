"""The club room's TV: the standings, the current round's tables with their totals, and the
game of the table the admin chose (`tv_table`), as a spectator sees it.

The page (leagues.club_views.tv) and its socket (leagues.consumers.TvConsumer) render the
same partials of templates/leagues/tv.html. The socket follows the tables of the current
round through their channel-layer groups (`table.<id>`: "table N is at version v", as
every table page does) and the event's own group, told when the event or its seating
changes. Only `engine.view(state, None)`, a spectator's view, reaches a template.
"""

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ObjectDoesNotExist
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games import announce, rendering
from games.models import Table, number_bots
from leagues import selectors
from leagues.models import (
    Evening,
    EveningTable,
    Season,
    SeatingMethod,
    Tournament,
    TournamentTable,
)

# The events a TV shows, by the word of their URLs (/leagues/<slug>/<word>/<pk>/tv/).
EVENTS = {"evenings": Evening, "tournaments": Tournament}
# How long a TV shows each panel, unless its address asks otherwise (?seconds=).
PANEL_SECONDS = 15
# Standings rows a TV shows: readable from across the room at 1080 lines.
STANDINGS_ROWS = 10
# The partials of templates/leagues/tv.html, in the order of a frame.
PARTS = ("head", "standings", "tables", "game")


def tv_group(event) -> str:
    """The channel-layer group of an event's TV sockets."""
    return f"tv.{event._meta.model_name}.{event.pk}"


def event_for(word: str, pk: int, slug: str, user):
    """The evening or tournament a TV shows, if `user` may see its league; else None."""
    model = EVENTS.get(word)
    if model is None:
        return None
    event = model.objects.select_related("season__league").filter(pk=pk).first()
    if event is None or event.season.league.slug != slug:
        return None
    if not selectors.league_visible(event.season.league, user):
        return None
    return event


def reload_event(event):
    """The event as the database has it now (its TV table may have changed); None if gone."""
    return type(event).objects.select_related("season__league").filter(pk=event.pk).first()


# --- what the TV shows --------------------------------------------------------------------


@dataclass
class TvPlayer:
    name: str
    total: int | None = None
    leads: bool = False


@dataclass
class TvTable:
    number: int
    table: Table
    players: list[TvPlayer] = field(default_factory=list)
    # The round of the game in play (None before it starts).
    game_round: int | None = None
    over: bool = False
    playing: bool = False


@dataclass
class TvRound:
    number: int | None
    tables: list[TvTable]
    slots: list
    # A duplicate round still played: every table holds the same cards, so no total and
    # no game is shown until the round's last table finishes.
    secret: bool = False


def current_round(event) -> TvRound:
    """The latest seated round of the event, its tables read as a spectator reads them."""
    number = event.seated_tables.order_by("-round").values_list("round", flat=True).first()
    if number is None:
        return TvRound(number=None, tables=[], slots=[])
    slots = list(
        event.seated_tables.filter(round=number)
        .select_related("table__game")
        .prefetch_related("table__seats__user")
        .order_by("number")
    )
    finished = all(slot.table.status == Table.Status.FINISHED for slot in slots)
    secret = bool(getattr(event, "duplicate", False)) and not finished
    tables = [_tv_table(slot, event.season.game.higher_wins, secret) for slot in slots]
    return TvRound(number=number, tables=tables, slots=slots, secret=secret)


def _tv_table(slot, higher_wins: bool, secret: bool) -> TvTable:
    table = slot.table
    shown = TvTable(number=slot.number, table=table)
    game = getattr(table, "game", None)
    if game is not None and game.finished_at and game.result:
        # Over: its result says it all (a game played on paper has no state to view).
        seats = number_bots(table.seats.all())
        totals = game.result["totals"]
        names = {seat.position: str(seat.name) for seat in seats}
        players = [
            TvPlayer(name=names.get(position, "?"), total=None if secret else total)
            for position, total in enumerate(totals)
        ]
        shown.over = True
    else:
        snapshot = rendering.read_snapshot(table.pk, keep=False)
        if snapshot is None:
            return shown
        shown.table = snapshot.table
        if snapshot.game is None:
            shown.players = [TvPlayer(name=str(seat.name)) for seat in snapshot.seats]
            return shown
        shared = snapshot.shared()  # the spectator's view: engine.view(state, None)
        shown.playing = True
        shown.game_round = shared["v"].get("round")
        players = [
            TvPlayer(name=str(player["seat"].name), total=None if secret else player["total"])
            for player in shared["players"]
        ]
    totals = [player.total for player in players if isinstance(player.total, int)]
    if len(set(totals)) > 1:  # nobody leads while everyone has the same
        best = max(totals) if higher_wins else min(totals)
        for player in players:
            player.leads = player.total == best
    sign = -1 if higher_wins else 1
    shown.players = sorted(
        players,
        key=lambda p: (p.total is None, sign * p.total if p.total is not None else 0),
    )
    return shown


@dataclass
class TvStandings:
    """Rank, player, games and the column that ranks them, the best first, under the name
    of what they rank (the tournament, or the season)."""

    title: str
    label: str
    rows: list[tuple]  # (rank, name, games, value)


def standings(event) -> TvStandings:
    """A tournament's own standings; an evening's season's (the ranked players)."""
    season: Season = event.season
    if isinstance(event, Tournament):
        rows = selectors.tournament_standings(tournament=event)[:STANDINGS_ROWS]
        label, value = _tournament_deciding(event)
        return TvStandings(
            title=event.name,
            label=label,
            rows=[(row.rank, row.user.shown_name, row.games, value(row)) for row in rows],
        )
    rows = [row for row in selectors.season_standings(season=season) if row.rank is not None]
    label, value = _deciding(season)
    return TvStandings(
        title=season.name,
        label=label,
        rows=[(row.rank, row.player, row.games, value(row)) for row in rows[:STANDINGS_ROWS]],
    )


def _tournament_deciding(tournament: Tournament):
    """The label and value of the figure the tournament ranks by first
    (selectors.tournament_standings)."""
    if tournament.duplicate:
        return _("Duplicate"), lambda row: f"{row.duplicate or 0.0:.2f}"
    if tournament.seating == SeatingMethod.SWISS:
        return _("Placement points"), lambda row: row.points
    return tournament.season.game.score_label, lambda row: row.heads


def _deciding(season: Season):
    """The label and value of the figure the season ranks by."""
    from leagues.views import COLUMNS, DECIDING_COLUMN

    key = DECIDING_COLUMN.get(season.ranking, "mean")
    labels = dict(COLUMNS)
    labels.update({"heads": season.game.score_label, "mean": season.game.per_round_label})
    values = {
        "mean": lambda row: f"{row.mean:.2f}",
        "heads": lambda row: row.heads,
        "points": lambda row: row.points,
        "mean_points": lambda row: f"{row.mean_points:.2f}",
        "best": lambda row: row.best,
        "rating": lambda row: f"{row.rating:.1f}",
    }
    return labels[key], values[key]


def game_frame(event, tv_round: TvRound, language: str) -> dict:
    """The chosen table's game as a spectator sees it (`rendering.live_frame` for nobody
    seated: the view of seat None, no hand), or why it is not shown."""
    chosen = event.tv_table
    if chosen is None:
        return {"chosen": None}
    slot = next((slot for slot in tv_round.slots if slot.number == chosen), None)
    if slot is None:
        return {"chosen": chosen, "missing": True}
    if tv_round.secret:
        return {"chosen": chosen, "table": slot.table, "secret": True}
    if slot.table.paper:  # played with real cards: nothing to watch
        return {"chosen": chosen, "table": slot.table, "paper": True}
    snapshot = rendering.read_snapshot(slot.table_id, keep=False)
    if snapshot is None or snapshot.game is None:
        return {"chosen": chosen, "table": slot.table, "waiting": True}
    frame = rendering.live_frame(snapshot, AnonymousUser(), language)
    return {"chosen": chosen, "table": slot.table, "frame": frame}


def context(event, language: str) -> dict:
    tv_round = current_round(event)
    return {
        "event": event,
        "league": event.season.league,
        "season": event.season,
        "round": tv_round,
        "standings": standings(event),
        "game": game_frame(event, tv_round, language),
    }


def render_parts(event, language: str, parts=PARTS) -> str:
    """The partials `parts` of the TV page, each replacing its element by id."""
    with translation.override(language):
        shown = context(event, language)
        return "".join(render_to_string(f"leagues/tv.html#{part}", shown).strip() for part in parts)


def table_ids(event) -> set[int]:
    """The tables of the event's current round: the groups a TV socket listens to."""
    number = event.seated_tables.order_by("-round").values_list("round", flat=True).first()
    if number is None:
        return set()
    return set(event.seated_tables.filter(round=number).values_list("table_id", flat=True))


# --- telling the TVs that the event or its seating changed ------------------------------


def announce_on_commit(event) -> None:
    announce.announce_on_commit(tv_group(event), {"type": "tv.changed"})


def event_saved(sender, instance, **kwargs) -> None:
    """An evening or tournament saved (its TV table may have changed)."""
    if instance.pk is not None:
        announce_on_commit(instance)


def seated_table_saved(sender, instance, **kwargs) -> None:
    """A table seated or removed: a new round has begun, or the round's tables changed."""
    try:
        event = instance.evening if isinstance(instance, EveningTable) else instance.tournament
    except ObjectDoesNotExist:  # the event is being deleted with its tables
        return
    announce_on_commit(event)


def connect() -> None:
    """Called from LeaguesConfig.ready."""
    from django.db.models.signals import post_delete, post_save

    for model in (Evening, Tournament):
        post_save.connect(event_saved, sender=model, dispatch_uid=f"leagues.tv.{model.__name__}")
    for model in (EveningTable, TournamentTable):
        for signal in (post_save, post_delete):
            signal.connect(
                seated_table_saved,
                sender=model,
                dispatch_uid=f"leagues.tv.{model.__name__}.{signal is post_save}",
            )
