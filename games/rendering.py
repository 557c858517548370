"""Reads and renders: what a player (or spectator) is shown of tables and games.

Only `engine.view(state, seat)` reaches a template: another seat's hand or unrevealed
choice is never in a context, so it cannot leak into HTML.

What is read here of a view is what every game has: its phase, who is to act, the
totals, the result, the version and the round (and the score sheet's round scores). A
game's board, its players' piles, its hand and its log are built by its Kind's hooks
(games.kinds.Kind: board_context, player_context, hand_context, actor, selection,
turn_log), which get the views and give the context of its own sections.
"""

import functools
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games import engine, kinds, selectors, services, signals
from games.models import Game, Seat, Table

log = logging.getLogger(__name__)


def _seat_names(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user").order_by("position"))


# Seated players' standings by game (its start, as ids may come back after a rollback)
# and seats_version: read again only when the seats change (a rating moves when a game
# ends, not during one).
_standings_kept: "OrderedDict[tuple, dict]" = OrderedDict()
_STANDINGS_KEPT = 2000


def _standings(table: Table, seats: list, game: Game | None) -> dict:
    """{position: {"rating", "rank", "change"}} of the seated players, as other apps answer
    games.signals.seat_standings (nothing for bots, nor without a receiver)."""
    # A game's end moves ratings (and shows each player's change): read them again then.
    key = (
        None if game is None else (table.pk, game.started_at, game.seats_version, game.finished_at)
    )
    if key is not None and key in _standings_kept:
        return _standings_kept[key]
    users = [seat.user_id for seat in seats if seat.user_id is not None]
    answers = {}
    if users:
        for _receiver, answer in signals.seat_standings.send(
            sender=Table, table=table, users=users
        ):
            answers.update(answer or {})
    standings = {seat.position: answers[seat.user_id] for seat in seats if seat.user_id in answers}
    if key is not None:
        _standings_kept[key] = standings
        while len(_standings_kept) > _STANDINGS_KEPT:
            _standings_kept.popitem(last=False)
    return standings


@dataclass(eq=False)
class Snapshot:
    """A table as one version of its game shows it, read once and then only read.

    Every seat of a table renders the same table, game and seats at a given version: the
    sections that look alike for all of them are rendered once per version and language
    in a process (`parts`), only the hand and the seat's own buttons per seat
    (docs/performance.md). `version` and `point_version` are None before the game.
    """

    table: Table
    game: Game | None
    seats: list
    state: object = None
    picked_up: list | None = None
    # A finished game whose deal another table still plays: no piles, record or replay.
    deal_closed: bool = False
    # A finished game's rematch table (or None) and the users seated there.
    rematch: tuple = (None, frozenset())
    # Each seated player's {"rating", "rank"} by position (_standings).
    standings: dict = field(default_factory=dict)
    # The plays of the game log the computer made for their player: (turn, seat) pairs
    # (selectors.computer_played_log).
    computer: frozenset = frozenset()
    # Before the game, who runs a reserved table besides superusers (services.table_runners).
    runners: frozenset = frozenset()
    parts: dict = field(default_factory=dict)
    seat_views: dict = field(default_factory=dict)
    _shared: dict | None = None
    _board: dict | None = None

    @property
    def version(self) -> int | None:
        return self.game.version if self.game else None

    @property
    def point_version(self) -> int | None:
        return self.game.point_version if self.game else None

    def position_of(self, user) -> int | None:
        if not user.is_authenticated:
            return None
        pk = user.pk
        for seat in self.seats:
            if seat.user_id == pk:
                return seat.position
        return None

    def seat_at(self, position: int) -> Seat:
        return next(seat for seat in self.seats if seat.position == position)

    def seat_view(self, position: int) -> dict:
        """What `position` may see (engine.view); the only source of a hand."""
        view = self.seat_views.get(position)
        if view is None:
            view = engine.get(self.table.kind).view(self.state, position)
            self.seat_views[position] = view
        return view

    def shared(self) -> dict:
        """The context every viewer of this version shares: nothing of anyone's hand."""
        if self._shared is None:
            self._shared = _shared_context(self)
        return self._shared

    def board(self) -> dict:
        """The rest of the shared context (the game's board, the score sheet), built when
        needed."""
        if self._board is None:
            self._board = _board_context(self)
        return self._board


def _shared_context(snapshot: Snapshot) -> dict:
    """What the players' section (sent for every version) and every seat need."""
    table, game, seats = snapshot.table, snapshot.game, snapshot.seats
    context = {"table": table, "seats": seats, "game": game, "v": None}
    if game is None:
        return context
    kind = kinds.get(table.kind)
    v = kind.engine.view(snapshot.state, None)
    own = kind.player_context
    context.update(
        {
            "v": v,
            # The seat asked while a turn resolves gets the places to tap in the shared
            # sections (a row to take, a card to pick...): the game says which.
            "actor_position": kind.actor(v) if kind.actor else None,
            "players": [
                {
                    "seat": seat,
                    # The seat's own entries as plain values: what a template reads from
                    # a dict costs less than what it reads from a model instance. Not its
                    # name: a bot's is translated in each frame's language.
                    "position": seat.position,
                    "bot": bool(seat.bot),
                    "away": seat.away,
                    "to_act": seat.position in v["to_act"],
                    "total": v["totals"][seat.position],
                    **(own(v, seat.position) if own else {}),
                    **snapshot.standings.get(seat.position, {}),
                }
                for seat in seats
            ],
            "ranking": _ranking(v, seats, kind.higher_wins) if v["result"] else None,
            "winners": [seats[seat].name for seat in v["result"]["winners"]] if v["result"] else [],
        }
    )
    return context


def _board_context(snapshot: Snapshot) -> dict:
    """The rest of what every reader sees alike: needed only for a whole frame, that is
    when the decision point moved (a selection sends only the players' section). The
    game's board (games.kinds.Kind.board_context), the score sheet and the end's piles."""
    v = snapshot.shared()["v"]
    kind = kinds.get(snapshot.table.kind)
    board = {
        "score_sheet": _score_sheet(v),
        "picked_up": snapshot.picked_up,
        "deal_closed": snapshot.deal_closed,
    }
    if kind.board_context is not None:
        board.update(
            kind.board_context(
                v,
                snapshot.seats,
                table=snapshot.table,
                state=snapshot.state,
                computer=snapshot.computer,
            )
        )
    return board


def _template(table: Table) -> str:
    return kinds.get(table.kind).template("live.html")


# The sections every game shares (the players' table, the seats before the game, the
# round summary, the score sheet, the ranking, the seat's and the game's end buttons).
SHARED_LIVE = "games/live.html"


def _render(snapshot: Snapshot, name: str, context: dict) -> str:
    """The partial `name` of the table's kind's live.html, or else of the shared
    games/live.html; "" if neither has such a section (a kind defines only the sections
    its game has, docs/engines.md)."""
    partial = _partial(_template(snapshot.table), name)
    if partial is None:
        return ""
    # Stripped: a frame's first element must start it (the load generator and the tests
    # read its id there), and the indentation of the partials is not worth sending.
    return partial.render(context).strip()


@functools.cache
def _partial(template: str, name: str):
    """The template of section `name` for a kind's live.html `template`, or None. Looked
    up once: a template not found is an exception whose traceback holds the render's
    context in a reference cycle."""
    try:
        return get_template(f"{template}#{name}")
    except TemplateDoesNotExist:
        get_template(template)  # a kind without its live.html is an error, not a blank
    try:
        return get_template(f"{SHARED_LIVE}#{name}")
    except TemplateDoesNotExist:
        return None


# Every section the live layer draws, by its partial's name.
SECTIONS = (
    "header", "seats", "players", "player", "hand", "actions", "end_actions", "log_past",
    "round_summary", "draft", "rows", "revealed", "last_turn", "turns", "played",
    "score_sheet", "ranking",
)  # fmt: skip


def find_sections(kind: str) -> None:
    """Look up every section of a kind's table once (each is looked up once per process
    anyway, at its first render)."""
    above, below = _sections(kinds.get(kind))
    for name in dict.fromkeys((*SECTIONS, *above, *below)):
        _partial(kinds.get(kind).template("live.html"), name)


@receiver(setting_changed)
def _templates_changed(setting, **kwargs):
    if setting in ("TEMPLATES", "INSTALLED_APPS"):
        _partial.cache_clear()


class _Kept(OrderedDict):
    """Sections that outlive a version (the header, a seat's buttons), kept per process
    under everything they are drawn from; the least recently used go first."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size
        # The event loop renders frames, the request threads pages.
        self.lock = threading.Lock()

    def get_or_render(self, key, render) -> str:
        with self.lock:
            html = self.get(key)
            if html is not None:
                self.move_to_end(key)
                return html
        html = render()
        with self.lock:
            self[key] = html
            if len(self) > self.size:
                self.popitem(last=False)
        return html


_headers = _Kept(1024)
_actions = _Kept(4096)


def _header(snapshot: Snapshot, language: str) -> str:
    # The table's name and options: the same for every version of a game.
    table = snapshot.table
    key = (
        table.pk,
        table.kind,
        language,
        str(table),
        table.seats_count,
        repr(sorted(table.options.items())),
        table.time_limit,
        table.is_public,
    )
    return _headers.get_or_render(key, lambda: _render(snapshot, "header", {"table": table}))


def _seat_actions(snapshot: Snapshot, position: int, csrf_token: str, language: str) -> str:
    # The leave/back form: it changes with the seat's absence and the game's end only.
    seat = snapshot.seat_at(position)
    ranking = snapshot.shared()["ranking"] if snapshot.game is not None else None
    table = snapshot.table
    key = (table.pk, table.kind, language, seat.away, bool(ranking), csrf_token)

    def render():
        context = {"table": snapshot.table, "my_seat": seat, "ranking": ranking}
        return _render(snapshot, "actions", {**context, "csrf_token": csrf_token})

    return _actions.get_or_render(key, render)


# The sections of a game on, in the order of the frame, by their partial's name in
# games/<kind>/live.html: those before the seat's hand, then those after it (unless the
# kind lists its own, Kind.sections).
_ABOVE_HAND = ("round_summary", "draft", "rows", "revealed")
_BELOW_HAND = ("last_turn", "turns", "played", "score_sheet", "ranking")


def _sections(kind: kinds.Kind) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return kind.sections or (_ABOVE_HAND, _BELOW_HAND)


# A game over opens with its result: the winner's banner and the final ranking.
_OVER_FIRST = ("ranking",)

# Sections whose partial draws nothing unless the context has something under the same
# name (`{% if draft %}` in games/<kind>/live.html): most whole frames have no draft, no
# revealed cards, no ranking, and a template render of nothing still costs a render.
_ONLY_WHEN_SHOWN = {
    "round_summary",
    "draft",
    "revealed",
    "last_turn",
    "turns",
    "score_sheet",
    "ranking",
}


def _part(snapshot: Snapshot, name: str, language: str, actor: bool = False) -> str:
    """A section every viewer of this version sees alike (but for the one who must
    choose a row or pick a card: `actor`), rendered once per version, process and
    language: the snapshot keeps the string for the table's other sockets."""
    key = (language, name, actor)
    html = snapshot.parts.get(key)
    if html is None:
        html = snapshot.parts[key] = _render_part(snapshot, name, actor)
    return html


def _render_part(snapshot: Snapshot, name: str, actor: bool) -> str:
    context = {**snapshot.shared(), "actor": actor}
    # The players' table, sent for every version, needs only the shared context; the
    # rest (rows, turns, score sheet) is built when a whole frame is.
    if snapshot.game is not None and name != "players":
        context.update(snapshot.board())
    if name == "players" and snapshot.game is not None:
        context["player_rows"] = _player_rows(snapshot)
    if name in _ONLY_WHEN_SHOWN and not context.get(name):
        return ""
    return _render(snapshot, name, context)


_rows_kept = _Kept(8192)


def _player_rows(snapshot: Snapshot) -> list[str]:
    """Each seat's row of the players' table (the `player` partial), kept per process
    under everything the partial is given: within a turn a selection changes one row."""
    phase = snapshot.shared()["v"]["phase"]
    template = _template(snapshot.table)
    rows = []
    for player in snapshot.shared()["players"]:
        # A bot's name in the frame's language: read here, under its translation.
        shown = {key: value for key, value in player.items() if key != "seat"}
        shown["name"] = player["seat"].name
        key = (template, translation.get_language(), phase, _frozen(shown))
        context = {"player": shown, "phase": phase}
        rows.append(
            _rows_kept.get_or_render(
                key, lambda c=context: mark_safe(_render(snapshot, "player", c))
            )
        )
    return rows


def _frozen(value):
    """`value` (dicts, lists, scalars) as a key."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


def _hand(snapshot: Snapshot, position: int, language: str) -> str:
    """The seat's `#hand` partial, from its own view of the game only."""
    view = snapshot.seat_view(position)
    context = {
        "v": snapshot.shared()["v"],
        # The seat's own view (its hand, what it may play): never another seat's.
        "mine": view,
        "my_seat": snapshot.seat_at(position),
    }
    own = kinds.get(snapshot.table.kind).hand_context
    if own is not None:
        context.update(own(view))
    return _render(snapshot, "hand", context)


def _open_tag(snapshot: Snapshot, position: int | None) -> str:
    # Written out: it opens every whole frame (format_html cost more than the rest of it).
    phase = snapshot.shared()["v"]["phase"] if snapshot.game else snapshot.table.status
    version = "" if snapshot.version is None else int(snapshot.version)
    me = "" if position is None else int(position)
    # The round in play: the page fetches the log of earlier rounds when it changes.
    number = snapshot.shared()["v"].get("round", "") if snapshot.game else ""
    return (
        f'<div id="live" data-version="{version}" data-phase="{escape(phase)}" data-me="{me}"'
        f' data-round="{escape(number)}">'
    )


def live_frame(snapshot: Snapshot, user, language: str, csrf_token: str = "", invite: str = ""):
    """The whole `#live` element for `user` (a player or a spectator).

    `csrf_token`: the forms of the frame post with the page's CSRF cookie, like the page's
    own forms. Renders nothing that needs the database: it may run on the event loop.
    """
    position = snapshot.position_of(user)
    with translation.override(language):
        html = [_open_tag(snapshot, position), _header(snapshot, language)]
        if snapshot.game is None:
            table = snapshot.table
            context = {
                **snapshot.shared(),
                "my_seat": None if position is None else snapshot.seat_at(position),
                "seat_rows": [
                    (seat, snapshot.standings.get(seat.position)) for seat in snapshot.seats
                ],
                # The creator's controls, for whoever runs the table (services.runs_table).
                "is_creator": services.runs_table(table, user, snapshot.runners),
                "free_seats": table.seats_count - len(snapshot.seats),
                "bot_choices": kinds.get(table.kind).bot_choices,
                "invite_path": f"{table.get_absolute_url()}?invite={table.invite_code}",
                "invite": invite,
                "csrf_token": csrf_token,
            }
            html.append(_render(snapshot, "seats", context))
        else:
            actor = position is not None and position == snapshot.shared()["actor_position"]
            first = _OVER_FIRST if snapshot.shared()["ranking"] else ()
            above, below = _sections(kinds.get(snapshot.table.kind))
            for name in first + above:
                html.append(_part(snapshot, name, language, actor))
            html.append(_part(snapshot, "players", language))
            if position is not None:
                html.append(_hand(snapshot, position, language))
            for name in below:
                if name not in first:
                    html.append(_part(snapshot, name, language))
            if position is not None:
                html.append(_seat_actions(snapshot, position, csrf_token, language))
            if first:
                html.append(_end_actions(snapshot, user, position, csrf_token))
        html.append("</div>")
    return mark_safe("".join(html))


def _end_actions(snapshot: Snapshot, user, position, csrf_token: str) -> str:
    """Rematch, join it, or back to the lobby: the end of a finished game's frame."""
    rematch_table, seated = snapshot.rematch
    context = {
        "table": snapshot.table,
        "my_seat": None if position is None else snapshot.seat_at(position),
        "rematch_table": rematch_table,
        "in_rematch": user.is_authenticated and user.pk in seated,
        "csrf_token": csrf_token,
    }
    return _render(snapshot, "end_actions", context)


def update_frame(snapshot: Snapshot, position: int | None, language: str, hand: bool) -> str:
    """What changes within one decision point (a selection, a bot's, an absence): the
    players' section, and the seat's own hand when `hand` (docs/protocol.md)."""
    with translation.override(language):
        html = _part(snapshot, "players", language)
        if hand and position is not None:
            html += _hand(snapshot, position, language)
    return html


def selection_of(snapshot: Snapshot, position: int | None):
    """What `position` has chosen within this decision point, as its game says
    (Kind.selection; None if nothing, or not seated): a change sends it its hand again."""
    if position is None or snapshot.game is None:
        return None
    selection = kinds.get(snapshot.table.kind).selection
    return None if selection is None else selection(snapshot.seat_view(position))


def past_rounds(snapshot: Snapshot) -> list[dict]:
    """The log of the rounds finished before the one in play (all of them once the game is
    over), grouped by round: the table page's "Earlier rounds" (games.views.table_log)."""
    turn_log = kinds.get(snapshot.table.kind).turn_log
    if snapshot.game is None or turn_log is None:
        return []
    v = snapshot.shared()["v"]
    turns = turn_log(snapshot.state, snapshot.seats, 1, snapshot.computer)
    rounds = {}
    for entry in turns:
        if entry["round"] < v["round"] or v["phase"] == "over":
            rounds.setdefault(entry["round"], []).append(entry)
    return [{"round": number, "turns": entries} for number, entries in rounds.items()]


def round_summary(v: dict, seats: list, *, higher_wins: bool = False) -> dict | None:
    """What the round before the one in play gave each player, their totals after it and
    who leads (fewest, RULES §1.6; most where `higher_wins`): the context of the shared
    `round_summary` section, for a game's board to show when its rules say (None before
    the second round, or when the view lacks that round's scores)."""
    finished = v["round"] - 1
    if finished < 1 or len(v["round_scores"]) < finished:
        return None
    scores = v["round_scores"][finished - 1]
    totals = [sum(sheet[seat] for sheet in v["round_scores"]) for seat in range(len(seats))]
    sign = -1 if higher_wins else 1
    best = min(sign * total for total in totals)
    return {
        "round": finished,
        "lines": sorted(
            (
                {
                    "seat": seat,
                    "name": seats[seat].name,
                    "heads": scores[seat],
                    "total": totals[seat],
                    "leads": sign * totals[seat] == best,
                }
                for seat in range(len(seats))
            ),
            key=lambda line: (sign * line["total"], str(line["name"])),
        ),
    }


def _score_sheet(v):
    scores = v.get("round_scores") or ()
    return [{"round": number, "heads": heads} for number, heads in enumerate(scores, 1)]


def _ranking(v, seats, higher_wins: bool):
    totals = v["result"]["totals"]
    sign = -1 if higher_wins else 1
    order = sorted(range(len(totals)), key=lambda seat: sign * totals[seat])
    ranking = []
    for seat in order:
        # RULES 1.6 (and 3.3): equal totals share the rank.
        rank = 1 + sum(1 for other in totals if sign * other < sign * totals[seat])
        ranking.append(
            {
                "rank": rank,
                "name": seats[seat].name,
                "total": totals[seat],
                "winner": seat in v["result"]["winners"],
            }
        )
    return ranking


# The latest snapshot of each table this process has seen (bounded): the first render of a
# version reads it, or the service hands it over on commit; the table's other seats reuse
# it, and so do the sections already rendered from it.
_SNAPSHOTS_KEPT = 2000
_snapshots: "OrderedDict[int, Snapshot]" = OrderedDict()


def snapshot_at(table_id: int, at_least: int) -> Snapshot | None:
    """The kept snapshot of a table at version `at_least` or later; None if there is none.
    Reads nothing: safe on the event loop."""
    snapshot = _snapshots.get(table_id)
    if snapshot is not None and snapshot.version is not None and snapshot.version >= at_least:
        return snapshot
    return None


def read_snapshot(table_id: int, keep: bool = True) -> Snapshot | None:
    """The table as the database has it now; None if the table is gone.

    With `keep`, the snapshot is kept for the renders of its version by the table's other
    sockets in this process (`snapshot_at`).
    """
    # The table and its game in two queries, not linked to each other by the ORM: a
    # game and its table linked both ways would be a reference cycle, and every snapshot
    # replaced would wait, with its game's JSON state, for a full garbage collection
    # instead of being freed at once. Nothing renders `game.table` nor `table.game`.
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    game = Game.objects.filter(table_id=table_id).first()
    if game is None:
        seats = _seat_names(table)
        return Snapshot(
            table=table,
            game=None,
            seats=seats,
            standings=_standings(table, seats, None),
            runners=services.table_runners(table),
        )
    if not keep:
        return _snapshot(table, game, _seat_names(table), None)
    return remember_snapshot(table, game, _seat_names(table))


def _snapshot(table, game, seats, state) -> Snapshot:
    game_engine = engine.get(table.kind)
    state = game_engine.load(game.state) if state is None else state
    over = game_engine.is_over(state)
    # The same for every viewer (a kept snapshot is shared), superusers too: they read
    # the record instead.
    deal_closed = over and selectors.deal_in_play_elsewhere(table)
    picked_up = selectors.picked_up(game, seats) if over and not deal_closed else None
    rematch = selectors.rematch_seats(table) if over else (None, frozenset())
    # Only a time limit or an away seat lets the computer play for a player.
    computer = frozenset()
    if table.time_limit or any(seat.away for seat in seats):
        computer = selectors.computer_played_log(game)
    return Snapshot(
        standings=_standings(table, seats, game),
        computer=computer,
        rematch=rematch,
        table=table,
        game=game,
        seats=seats,
        state=state,
        picked_up=picked_up,
        deal_closed=deal_closed,
    )


def remember_snapshot(table: Table, game: Game, seats: list, state=None) -> Snapshot:
    """Keep a just read game for the renders of its version by the table's other sockets
    (unless a later version is kept already)."""
    kept = _snapshots.get(table.pk)
    if kept is not None and kept.version is not None and kept.version > game.version:
        return _snapshot(table, game, seats, state)
    snapshot = _snapshot(table, game, seats, state)
    _snapshots[table.pk] = snapshot
    _snapshots.move_to_end(table.pk)
    while len(_snapshots) > _SNAPSHOTS_KEPT:
        _snapshots.popitem(last=False)
    return snapshot


def page_live(table: Table, user, language: str, csrf_token: str, invite: str = ""):
    """The `#live` element of a table page (an HTTP request): read afresh, not kept."""
    snapshot = read_snapshot(table.pk, keep=False)
    return live_frame(snapshot, user, language, csrf_token, invite)


def page_log(table: Table, language: str) -> str:
    """The log of the rounds finished before the one in play (the `log_past` partial of the
    table's kind; "" for a kind without one): shown under `#live`, fetched again by the
    page when a round ends."""
    snapshot = read_snapshot(table.pk, keep=False)
    if snapshot is None:
        return ""
    upto = ""
    if snapshot.game is not None:
        v = snapshot.shared()["v"]
        # As the page compares it with `#live`'s data-round (static/js/live.js).
        upto = f"{v.get('round', '')}{'over' if v['phase'] == 'over' else ''}"
    context = {"table": table, "upto": upto, "past_rounds": past_rounds(snapshot)}
    with translation.override(language):
        return mark_safe(_render(snapshot, "log_past", context))


def render_lobby_tables(user, language: str) -> str:
    with translation.override(language):
        return render_to_string("games/lobby.html#tables", selectors.lobby_tables(user))
