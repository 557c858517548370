"""A table as one version of its game shows it (Snapshot): read from the database once a
version, kept for the process's sockets, and the context every viewer of it shares."""

from collections import OrderedDict
from dataclasses import dataclass, field

from games import engine, kinds, selectors, services, signals
from games.models import Game, Seat, Table


def _seat_names(table: Table) -> list[Seat]:
    return table.seats.named()


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
    # {position: decisions the computer made for an away player since her own last one}
    # (selectors.played_for): her banner when she comes back.
    played_for: dict = field(default_factory=dict)
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
                    # A timed table's time bank, beside each player (RULES §1.8).
                    "bank": seat.bank if table.time_limit and not seat.bot else None,
                    "to_act": seat.position in v["to_act"],
                    "total": v["totals"][seat.position],
                    **(own(v, seat.position) if own else {}),
                    **snapshot.standings.get(seat.position, {}),
                }
                for seat in seats
            ],
            # Each awaited seat's own deadline: the countdown shows the viewer hers.
            "seat_deadlines": [
                (seat.position, deadline)
                for seat in seats
                if seat.position in v["to_act"]
                and (deadline := services.seat_deadline(game, table, seat)) is not None
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
    played_for = selectors.played_for(game, [seat.position for seat in seats if seat.away])
    return Snapshot(
        played_for=played_for,
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
