"""What a club night puts on paper: the round sheets handed to each table (seat order and
an empty score grid) and the evening's results (each table's final ranking, the best score).

Reads only; the pages are leagues.club_views.
"""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from games.models import number_bots
from leagues import scoring, selectors

# Lines of an empty score grid when the table's options do not fix the number of rounds
# (a game to a threshold, or to a target): enough for most games, a spare at the end.
OPEN_ENDED_ROWS = 8


@dataclass
class SheetTable:
    """One table of a round as its sheet prints it."""

    number: int
    table: object
    players: list[str]
    rows: range


def sheet_rows(table) -> range:
    """The numbered lines of a table's score grid: its rounds when the options fix them."""
    options = table.options or {}
    rounds = options.get("rounds") if options.get("end", "rounds") == "rounds" else None
    if not isinstance(rounds, int) or not 1 <= rounds <= 20:
        rounds = OPEN_ENDED_ROWS
    return range(1, rounds + 1)


def round_sheet(event, number: int) -> list[SheetTable]:
    """The tables of the event's round `number`, each with its players in seat order: the
    seated players (and bots), or, before anyone sat, the players the seating reserved it
    for. Empty if the round is not seated."""
    slots = (
        event.seated_tables.filter(round=number)
        .select_related("table")
        .prefetch_related("table__seats__user")
        .order_by("number")
    )
    slots = list(slots)
    reserved = {pk for slot in slots for pk in slot.reserved_for}
    users = get_user_model().objects.in_bulk(reserved) if reserved else {}
    tables = []
    for slot in slots:
        seats = number_bots(slot.table.seats.all())
        if seats:
            players = [str(seat.name) for seat in seats]
        else:
            players = [users[pk].shown_name for pk in slot.reserved_for if pk in users]
        tables.append(
            SheetTable(
                number=slot.number, table=slot.table, players=players, rows=sheet_rows(slot.table)
            )
        )
    return tables


def event_round_numbers(event) -> list[int]:
    return sorted(set(event.seated_tables.values_list("round", flat=True)))


# --- results ---------------------------------------------------------------------------------


@dataclass
class ResultLine:
    place: int
    name: str
    total: int
    rounds: int
    won: bool
    bot: bool

    @property
    def per_round(self) -> float:
        return self.total / self.rounds if self.rounds else 0.0


@dataclass
class TableResult:
    round: int
    number: int
    table: object
    # Empty until the game is over, and for a game the league admin voided.
    lines: list[ResultLine] = field(default_factory=list)
    void: bool = False

    @property
    def finished(self) -> bool:
        return bool(self.lines)


@dataclass
class BestScore:
    """A player's score per round (or hand) at one table, the best of the evening."""

    line: ResultLine
    table: TableResult


@dataclass
class Results:
    tables: list[TableResult]
    # The best score per round of the event (ties all listed); players only, not bots.
    best: list[BestScore]

    @property
    def rounds(self) -> list[tuple[int, list[TableResult]]]:
        grouped: dict[int, list[TableResult]] = {}
        for result in self.tables:
            grouped.setdefault(result.round, []).append(result)
        return sorted(grouped.items())


def event_results(event) -> Results:
    """Every table of the event with its final ranking (RULES §1.6, §3.3: equal totals share
    the place), and the best score per round of a player over the whole event: fewest heads
    per round, or most points per hand where the season's game counts points."""
    higher_wins = event.season.game.higher_wins
    slots = event.seated_tables.select_related("table__game__league_entry").prefetch_related(
        "table__seats__user"
    )
    tables = []
    in_play = selectors.deals_in_play()
    for slot in slots.order_by("round", "number"):
        result = TableResult(round=slot.round, number=slot.number, table=slot.table)
        game = getattr(slot.table, "game", None)
        result.void = game is not None and selectors.is_void(game)
        outcome = selectors.result_of(slot.table, in_play)
        if outcome:
            result.lines = _ranking(slot.table, outcome, higher_wins)
        tables.append(result)
    return Results(tables=tables, best=_best(tables, higher_wins))


def _ranking(table, outcome: dict, higher_wins: bool) -> list[ResultLine]:
    totals = outcome["totals"]
    rounds = len(outcome.get("rounds") or ())
    placed = scoring.places(totals, higher_wins)
    lines = [
        ResultLine(
            place=placed[seat.position],
            name=str(seat.name),
            total=totals[seat.position],
            rounds=rounds,
            won=seat.position in outcome.get("winners", ()),
            bot=not seat.user_id,
        )
        for seat in number_bots(table.seats.all())
        if seat.position < len(totals)
    ]
    return sorted(lines, key=lambda line: (line.place, line.name.casefold()))


def _best(tables: list[TableResult], higher_wins: bool) -> list[BestScore]:
    sign = -1 if higher_wins else 1
    scored = [
        BestScore(line=line, table=result)
        for result in tables
        for line in result.lines
        if not line.bot and line.rounds
    ]
    if not scored:
        return []
    best = min(sign * score.line.per_round for score in scored)
    return [score for score in scored if sign * score.line.per_round == best]
