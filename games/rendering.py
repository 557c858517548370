"""Reads and renders: what a player (or spectator) is shown of tables and games.

Only `engine.view(state, seat)` reaches a template: another seat's hand or unrevealed
choice is never in a context, so it cannot leak into HTML.
"""

import copy
import datetime
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games import engine, selectors
from games.models import BOT_CHOICES, GAME_PLAY_FIELDS, Game, Seat, Table

log = logging.getLogger(__name__)


def _seat_names(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user").order_by("position"))


def card_faces(game_engine, cards):
    return [{"number": card, "heads": game_engine.heads(card)} for card in cards]


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
            # Made from the spectator view of this version (the engine adds the seat's own).
            view = engine.get(self.table.kind).view(self.state, position, self.shared()["v"])
            self.seat_views[position] = view
        return view

    def shared(self) -> dict:
        """The context every viewer of this version shares: nothing of anyone's hand."""
        if self._shared is None:
            self._shared = _shared_context(self)
        return self._shared

    def board(self) -> dict:
        """The rest of the shared context (rows, turns, score sheet), built when needed."""
        if self._board is None:
            self._board = _board_context(self)
        return self._board


def _shared_context(snapshot: Snapshot) -> dict:
    """What the players' section (sent for every version) and every seat need."""
    table, game, seats = snapshot.table, snapshot.game, snapshot.seats
    context = {"table": table, "seats": seats, "game": game, "v": None}
    if game is None:
        return context
    v = engine.get(table.kind).view(snapshot.state, None)
    if v["phase"] == "draft":
        actor = v["draft"]["to_pick"]
    elif v["phase"] == "choose_row":
        actor = v["chooser"]
    else:
        actor = None
    context.update(
        {
            "v": v,
            "actor_position": actor,
            "players": [
                {
                    "seat": seat,
                    # The seat's own entries as plain values: what a template reads from
                    # a dict costs less than what it reads from a model instance. Not its
                    # name: a bot's is translated in each frame's language.
                    "position": seat.position,
                    "bot": bool(seat.bot),
                    "away": seat.away,
                    "selected": v["selected"][seat.position],
                    "to_act": seat.position in v["to_act"],
                    "pile": v["piles"][seat.position],
                    "total": v["totals"][seat.position],
                }
                for seat in seats
            ],
            "ranking": _ranking(v, seats) if v["result"] else None,
        }
    )
    return context


def _board_context(snapshot: Snapshot) -> dict:
    """The rest of what every reader sees alike: needed only for a whole frame, that is
    when the decision point moved (a selection sends only the players' section)."""
    shared = snapshot.shared()
    v, seats = shared["v"], snapshot.seats
    game_engine = engine.get(snapshot.table.kind)
    last = v.get("last_turn")
    return {
        "rows": [
            {"index": index, "cards": card_faces(game_engine, row)}
            for index, row in enumerate(v["rows"])
        ],
        "chooser_name": seats[v["chooser"]].name if v["chooser"] is not None else "",
        "last_turn": _last_turn(game_engine, last, seats) if last else None,
        "revealed": _revealed(game_engine, v, seats),
        "draft": _draft(game_engine, v, seats),
        "score_sheet": _score_sheet(v),
        # The numbers of the cards seen (the panel lists numbers, not cards).
        "played": list(v["seen"]) if snapshot.table.show_played else None,
        "picked_up": snapshot.picked_up,
        "deal_closed": snapshot.deal_closed,
    }


def _template(table: Table) -> str:
    return f"games/{table.kind}/live.html"


def _render(snapshot: Snapshot, name: str, context: dict) -> str:
    """The partial `name` of the table's kind's live.html; "" if the kind has no such
    section (a kind defines only the sections its game has, docs/engines.md)."""
    template = _template(snapshot.table)
    try:
        partial = get_template(f"{template}#{name}")
    except TemplateDoesNotExist:
        get_template(template)  # a kind without its live.html is an error, not a blank
        return ""
    # Stripped: a frame's first element must start it (the load generator and the tests
    # read its id there), and the indentation of the partials is not worth sending.
    return partial.render(context).strip()


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
# games/<kind>/live.html: those before the seat's hand, then those after it.
_ABOVE_HAND = ("draft", "rows", "revealed")
_BELOW_HAND = ("last_turn", "played", "score_sheet", "ranking")

# Sections whose partial draws nothing unless the context has something under the same
# name (`{% if draft %}` in games/<kind>/live.html): most whole frames have no draft, no
# revealed cards, no ranking, and a template render of nothing still costs a render.
_ONLY_WHEN_SHOWN = {"draft", "revealed", "last_turn", "score_sheet", "ranking"}


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
    if name in _ONLY_WHEN_SHOWN and not context.get(name):
        return ""
    return _render(snapshot, name, context)


def _hand(snapshot: Snapshot, position: int, language: str) -> str:
    """The seat's `#hand` partial, from its own view of the game only."""
    view = snapshot.seat_view(position)
    v = snapshot.shared()["v"]
    context = {
        "v": v,
        "my_seat": snapshot.seat_at(position),
        "hand": card_faces(engine.get(snapshot.table.kind), view["hand"] or []),
        "can_select": v["phase"] == "select",
        "my_selection": view["my_selection"],
    }
    return _render(snapshot, "hand", context)


def _open_tag(snapshot: Snapshot, position: int | None) -> str:
    # Written out: it opens every whole frame (format_html cost more than the rest of it).
    phase = snapshot.shared()["v"]["phase"] if snapshot.game else snapshot.table.status
    version = "" if snapshot.version is None else int(snapshot.version)
    me = "" if position is None else int(position)
    return f'<div id="live" data-version="{version}" data-phase="{escape(phase)}" data-me="{me}">'


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
                "is_creator": user.is_authenticated and table.created_by_id == user.pk,
                "free_seats": table.seats_count - len(snapshot.seats),
                "bot_choices": BOT_CHOICES,
                "invite_path": f"{table.get_absolute_url()}?invite={table.invite_code}",
                "invite": invite,
                "csrf_token": csrf_token,
            }
            html.append(_render(snapshot, "seats", context))
        else:
            actor = position is not None and position == snapshot.shared()["actor_position"]
            for name in _ABOVE_HAND:
                html.append(_part(snapshot, name, language, actor))
            html.append(_part(snapshot, "players", language))
            if position is not None:
                html.append(_hand(snapshot, position, language))
            for name in _BELOW_HAND:
                html.append(_part(snapshot, name, language))
            if position is not None:
                html.append(_seat_actions(snapshot, position, csrf_token, language))
        html.append("</div>")
    return mark_safe("".join(html))


def update_frame(snapshot: Snapshot, position: int | None, language: str, hand: bool) -> str:
    """What changes within one decision point (a selection, a bot's, an absence): the
    players' section, and the seat's own hand when `hand` (docs/protocol.md)."""
    with translation.override(language):
        html = _part(snapshot, "players", language)
        if hand and position is not None:
            html += _hand(snapshot, position, language)
    return html


def selection_of(snapshot: Snapshot, position: int | None):
    """The card `position` has chosen this turn (None if none, or not seated)."""
    if position is None or snapshot.game is None:
        return None
    return snapshot.seat_view(position)["my_selection"]


def _last_turn(game_engine, last, seats):
    plays = [
        {
            "name": seats[seat].name,
            "card": {"number": card, "heads": game_engine.heads(card)},
            "row": last["choices"].get(str(seat)),
        }
        for seat, card in enumerate(last["cards"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])


def _revealed(game_engine, v, seats):
    if not v["revealed"]:
        return None
    plays = [
        {
            "name": seats[seat].name,
            "card": {"number": card, "heads": game_engine.heads(card)},
            "placed": card not in v["resolving"],
        }
        for seat, card in enumerate(v["revealed"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])


def _draft(game_engine, v, seats):
    draft = v.get("draft")
    if not draft or v["phase"] != "draft":
        return None
    return {
        "pool": card_faces(game_engine, draft["pool"]),
        "picks": [{"name": seats[seat].name, "card": card} for seat, card in draft["picks"]],
        "picker": seats[draft["to_pick"]].name,
    }


def _score_sheet(v):
    return [{"round": number, "heads": heads} for number, heads in enumerate(v["round_scores"], 1)]


def _ranking(v, seats):
    totals = v["result"]["totals"]
    order = sorted(range(len(totals)), key=lambda seat: totals[seat])
    ranking = []
    for seat in order:
        # RULES 1.6: equal totals share the rank.
        rank = 1 + sum(1 for other in totals if other < totals[seat])
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

    With `keep`, the snapshot is kept for the table's other seats, and the seats this
    process already holds are reused while `Game.seats_version` has not moved.
    """
    game = Game.objects.filter(table_id=table_id).select_related("table").first()
    if game is None:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return None
        return Snapshot(table=table, game=None, seats=_seat_names(table))
    table = game.table
    if not keep:
        return _snapshot(table, game, _seat_names(table), None)
    seats = kept_seats(game)
    return remember_snapshot(table, game, _seat_names(table) if seats is None else seats)


async def catch_up(table_id: int, at_least: int, move: dict | None = None) -> Snapshot | None:
    """The kept snapshot of a table brought to version `at_least` or later on the event
    loop, when only the game's play moved since (another process's decisions).

    With the `move` that came with the announcement (`move_of`), when it starts from the
    kept version, nothing is read: the kept version plus the move is the new one. Else
    one query on the event loop's own connection (games.loopdb) reads the game's play
    fields and its table's row; the kept table and seats are reused. Returns None, and
    the caller reads the table in a thread (`read_snapshot`), whenever anything more may
    be needed: nothing kept, the seats or the table changed, a game at its end (its
    picked-up piles are other rows), no free connection, any database error.
    """
    from games import loopdb

    kept = snapshot_at(table_id, at_least)
    if kept is not None:
        return kept
    kept = _snapshots.get(table_id)
    if kept is None or kept.game is None or kept.version is None:
        return None
    game_engine = engine.get(kept.table.kind)
    known = _known_dump(kept, game_engine)
    if move is not None and known is not None:
        try:
            snapshot = _moved(kept, known, move, at_least, game_engine)
        except Exception:  # not as `move_of` makes them: read the row instead
            log.warning("table %s: a move that does not apply", table_id, exc_info=True)
            snapshot = None
        if snapshot is not None:
            return snapshot
    if not loopdb.available():
        return None
    try:
        query = _catch_up_query(kept.game.pk, -1 if known is None else kept.version)
        row = await loopdb.fetchone(*query)
    except Exception:
        log.info("table %s: read in a thread instead", table_id, exc_info=True)
        return None
    if row is None or row is loopdb.BUSY:
        return None
    fields = len(GAME_PLAY_FIELDS) + 2
    play, table_values = row[:fields], row[fields:]
    seats_version, changes = play[0], play[1]
    values = dict(zip(GAME_PLAY_FIELDS, play[2:], strict=True))
    table = kept.table
    if (
        values["version"] < at_least
        or values["finished_at"] is not None
        or seats_version != kept.game.seats_version
        or any(
            getattr(table, field.attname) != value
            for field, value in zip(Table._meta.concrete_fields, table_values, strict=True)
        )
    ):
        return None
    latest = snapshot_at(table_id, at_least)  # another socket's read may have come first
    if latest is not None:
        return latest
    if values["state"] is None:
        # The row holds the changes from the kept version: only they were read.
        values["state"] = {**known, **changes}
        state = game_engine.load_changes(kept.state, changes)
    else:
        state = _load_from(kept, values["state"], game_engine)
    if game_engine.is_over(state):
        return None
    return _keep_next(kept, values, state)


def _keep_next(kept: Snapshot, values: dict, state) -> Snapshot:
    """Keep, as the table's latest version, the kept game with the play fields `values`
    (GAME_PLAY_FIELDS) and the engine `state`, with the kept table and seats."""
    game = copy.copy(kept.game)
    for name, value in values.items():
        setattr(game, name, value)
    return remember_snapshot(kept.table, game, kept.seats, state)


def move_of(table: Table, game: Game, changes: dict | None) -> dict | None:
    """What another process needs to bring the version before `game`'s to it without
    reading anything (`catch_up`), sent with the announcement of a decision stored from
    the event loop: the entries of the state that changed, the game's other play fields,
    and what the version before must have been for them to apply to it (its version, its
    seats, its table). None when there is no such thing to send (the changes unknown, the
    game over)."""
    if changes is None or game.finished_at is not None or game.result is not None:
        return None
    return {
        "from": game.version - 1,
        "changes": changes,
        "version": game.version,
        "point_version": game.point_version,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "seats": game.seats_version,
        "table": _table_print(table),
    }


_TABLE_COLUMNS = tuple(field.attname for field in Table._meta.concrete_fields)


def _table_print(table: Table) -> str:
    """The table's row as a string that two processes compute alike from equal rows.

    Kept on the table object with the values it was made from, and made again only when
    they differ (a copy changed by `_settle`, an admin's change read anew)."""
    values = tuple(getattr(table, name) for name in _TABLE_COLUMNS)
    made = table.__dict__.get("_print")
    if made is not None and made[0] == values:
        return made[1]
    row = dict(zip(_TABLE_COLUMNS, values, strict=True))
    printed = json.dumps(row, sort_keys=True, default=_print_value)
    table.__dict__["_print"] = (values, printed)
    return printed


def _print_value(value):
    if isinstance(value, datetime.datetime):
        return value.timestamp()
    return str(value)


def _moved(kept: Snapshot, known: dict, move: dict, at_least: int, game_engine):
    """The kept version brought to the next one by another process's `move` (`move_of`),
    or None if the move does not start from it or its seats or table differ."""
    if (
        move["from"] != kept.version
        or move["version"] != kept.version + 1
        or move["version"] < at_least
        or move["seats"] != kept.game.seats_version
        or move["table"] != _table_print(kept.table)
        or not isinstance(move["changes"], dict)
    ):
        return None
    changes = move["changes"]
    state = game_engine.load_changes(kept.state, changes)
    if game_engine.is_over(state) or state.version != move["version"]:
        return None
    deadline = move["deadline"]
    values = {
        "state": {**known, **changes},
        "version": move["version"],
        "point_version": move["point_version"],
        "deadline": datetime.datetime.fromisoformat(deadline) if deadline else None,
        "finished_at": None,
        "result": None,
    }
    return _keep_next(kept, values, state)


def _known_dump(kept: Snapshot, game_engine) -> dict | None:
    """The dump of the kept version's state, if the kept game holds it and the engine can
    load changes to it (`load_changes`)."""
    known = kept.game.__dict__.get("state")
    if getattr(game_engine, "load_changes", None) is None or not isinstance(known, dict):
        return None
    if known.get("version") != kept.state.version or kept.game.version != kept.version:
        return None
    return known


def _load_from(kept: Snapshot, data: dict, game_engine):
    """The engine state of the dump `data`, loading only the entries that differ from the
    kept version's dump when the engine can (`load_changes`): the history of finished
    rounds, most of a late state, has not changed."""
    known = _known_dump(kept, game_engine)
    if known is None or known.keys() != data.keys():
        return game_engine.load(data)
    return game_engine.load_changes(kept.state, {k: v for k, v in data.items() if known[k] != v})


def _catch_up_query(game_id: int, known_version: int) -> tuple[str, list]:
    """The game's seats version, its changes from `known_version` if the row holds them
    (`Game.changes`: then its state is not read), its play fields, and its table's row."""
    holds = "g.changes_from = %s AND g.version = g.changes_from + 1"
    play = ", ".join(
        f"CASE WHEN {holds} THEN NULL ELSE g.state END"
        if name == "state"
        else f"g.{Game._meta.get_field(name).column}"
        for name in GAME_PLAY_FIELDS
    )
    table = ", ".join(f"t.{field.column}" for field in Table._meta.concrete_fields)
    return (
        f"SELECT g.seats_version, CASE WHEN {holds} THEN g.changes END, {play}, {table}"
        f" FROM {Game._meta.db_table} g JOIN {Table._meta.db_table} t ON t.id = g.table_id"
        " WHERE g.id = %s",
        [known_version, known_version, game_id],
    )


def kept_seats(game: Game) -> list | None:
    """The seats this process keeps for `game`, if no seat (nor a seated player's name) has
    changed since they were read (games.signals bumps `Game.seats_version`)."""
    kept = _snapshots.get(game.table_id)
    if kept is None or kept.game is None or kept.game.pk != game.pk:
        return None
    if kept.game.seats_version != game.seats_version:
        return None
    return kept.seats


def _snapshot(table, game, seats, state) -> Snapshot:
    # Forget the table's link back to its game, which the ORM sets beside the game's
    # link to its table: the pair would be a reference cycle, and every snapshot replaced
    # would wait, with its game's JSON state, for a full garbage collection instead of
    # being freed at once (docs/performance.md §12). Nothing renders `table.game`.
    table._state.fields_cache.pop("game", None)
    game_engine = engine.get(table.kind)
    state = game_engine.load(game.state) if state is None else state
    over = game_engine.is_over(state)
    # The same for every viewer (a kept snapshot is shared), superusers too: they read
    # the record instead.
    deal_closed = over and selectors.deal_in_play_elsewhere(table) is not None
    picked_up = selectors.picked_up(game, seats) if over and not deal_closed else None
    return Snapshot(
        table=table,
        game=game,
        seats=seats,
        state=state,
        picked_up=picked_up,
        deal_closed=deal_closed,
    )


def remember_snapshot(table: Table, game: Game, seats: list, state=None) -> Snapshot:
    """Keep a just committed (or just read) game for the renders of its version.

    Called by the service on commit, before the change is announced (with the engine state
    it has, so nothing is loaded twice), so that no seat of the table reads it again.
    """
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


def render_lobby_tables(user, language: str) -> str:
    with translation.override(language):
        return render_to_string("games/lobby.html#tables", selectors.lobby_tables(user))
