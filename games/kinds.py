"""Every game the site hosts, as a registration: what is specific to a game is found here
from a table's `kind`, never by testing the kind's name elsewhere.

    from games import kinds
    kind = kinds.get(table.kind)
    kind.engine.new_game(...), kind.template("live.html"), kind.bots["expert"], ...

A new game provides the pieces of a `Kind` and calls `register` (docs/engines.md, "Adding
a game"). 6 qui prend ! is registered below.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Seat


@dataclass(frozen=True)
class Kind:
    """One game: its rules, its lobby options, its pages, its bots, its record, its leagues."""

    # Table.kind, the engine's KIND, a record's "game".
    name: str
    # The game's name as players read it (lobby, admin).
    label: str
    # The engine module (docs/engines.md's interface: new_game, apply, view, ...).
    engine: ModuleType
    # The lobby's fields for this game's options: an OptionsForm subclass.
    options_form: type["OptionsForm"]
    # How many seats a table of this game may have.
    players: range
    # What the lobby's list says of a table's options, in one translated line: (the
    # table's options) -> str, e.g. "to 66 heads". None: the list says nothing of them.
    summary: Callable[[dict], str] | None = None
    # Bot classes by name. A seat keeps only the name, so names are unique across games.
    bots: Mapping[str, type] = field(default_factory=dict)
    # (name, label) of each bot, strongest first: the table page offers them in this
    # order, the first by default (`strongest_bot`).
    bot_choices: list = field(default_factory=list)
    # What each bot is, by name, in a few words the picker shows after its label
    # ("the strongest: thinks ahead"). A bot without one shows its label only.
    bot_notes: Mapping[str, str] = field(default_factory=dict)
    # The folder of its templates: table.html, live.html, replay.html.
    templates: str = ""
    # The record format: write (state, player names) -> dict; read (record,
    # allow_unfinished=) -> result, raising engine.RecordError. By default the engine's.
    write_record: Callable | None = None
    read_record: Callable | None = None
    # The replay viewer's context: (game, step) -> dict for `template("replay.html")`.
    replay_context: Callable | None = None
    # League scoring: the score sheet (one list per round, a number per seat, as the
    # engine's "round_over" event gives it) -> each seat's total, which a league ranks by.
    # None: the game is not played in leagues.
    league_totals: Callable | None = None
    # Whether a larger total ranks first (points) rather than a smaller one (heads).
    higher_wins: bool = False
    # What standings call a total and a total per round of this game.
    score_label: str = _("Heads")
    per_round_label: str = _("Heads per round")
    # The options of a table seated for a club evening or tournament: (event) -> the
    # engine's options. None: the engine's defaults.
    event_options: Callable | None = None
    # The options of every table of one duplicate round, which play the same deals:
    # (the options `event_options` gave, the players at each table) -> the options, so
    # that every table plays the same game (e.g. the same number of hands rather than
    # to a target each table reaches after its own). By default, the same options.
    duplicate_options: Callable[[dict, int], dict] = lambda options, players: options
    # What `manage.py simulate` watches in this game's games besides points and times:
    # (seat bots' names) -> an object told `after(before, seat, decision, state, events,
    # bots)` of each decision and `game_over()`, whose `report()` is printed.
    simulation_watch: Callable | None = None
    # A score sheet written on paper (lines in the game's unit, `players` seats) -> the
    # score sheet rows and the result a game played here leaves; games.paper.SheetError
    # when it cannot be this game's. None: the game is not entered on paper.
    paper_sheet: Callable | None = None
    # How many lines a paper sheet of a table with these options starts with: (options)
    # -> the rounds its game plays when that is fixed; None when it ends at a score.
    sheet_lines: Callable[[dict], int | None] = lambda options: None
    # Its stylesheet (a static path), linked by every page that shows its game: the
    # table, the replay, the club's TV. Empty: the site's own styles suffice.
    stylesheet: str = ""
    # Its reveal animation (a static path): a script the table page loads after the shared
    # static/js/live.js, defining the animation its live.html names in data-reveal-with.
    # Empty: the steps its template declares are highlighted one after another.
    script: str = ""

    # What its live table draws besides what every game has (games.rendering knows only
    # the phase, who is to act, the seats, the totals, the result, the version and the
    # round). Each hook gets the engine's views, never a secret of another seat.
    #
    # The board: the context of its own sections (rows, revealed cards, log, round
    # summary...), the same for every viewer of a version, built once a version and
    # only for a whole frame: (v: the public view, seats: the Seats by position, *,
    # table, state: the engine's state, computer: the (turn, seat) plays the computer
    # made for their player, turns counted over the game) -> dict. None: no board.
    board_context: Callable[..., dict] | None = None
    # A seat's own entries in the players' section, besides its name, absence, standing,
    # total and whether it is to act: (v, position) -> dict (e.g. {"selected", "pile"}).
    player_context: Callable[[dict, int], dict] | None = None
    # The seat's hand section: (the seat's own view) -> its context besides `v`, `mine`
    # (that view) and `my_seat`. None: those only.
    hand_context: Callable[[dict], dict] | None = None
    # The seat the shared sections offer places to tap while a turn resolves (a row to
    # take, a card to pick, a prompt's answer): (v) -> position or None. None: nobody.
    actor: Callable[[dict], int | None] | None = None
    # What a seat may change within one decision point (a secret selection): (the seat's
    # own view) -> a value compared between pushes; a change sends the seat its hand
    # again. None: a seat's hand changes only with the decision point.
    selection: Callable[[dict], object] | None = None
    # The finished turns of rounds `since_round` on, each with its "round" and "turn",
    # for the log of earlier rounds (`log_past`): (state, seats, since_round, computer)
    # -> list of dicts. None: no log of earlier rounds.
    turn_log: Callable[..., list] | None = None

    # The post-game review (games.reviews) in the game's words. A decision as the review
    # names it: (a decision dict, as the engine takes it) -> a short translated text
    # ("44 (3 heads)", "row 2"). None: the decision's fields as they are.
    describe_decision: Callable[[dict], str] | None = None
    # An amount of the game's score in words: (a number, one decimal) -> "7.2 heads".
    describe_amount: Callable[[float], str] = lambda amount: f"{amount:.1f}"
    # The replay viewer's step that shows each decision of the log: (game) -> one step
    # (the `step` of replay_context) per decision, in the log's order. None: step 0.
    replay_steps: Callable | None = None

    def __post_init__(self):
        # Filled from the name and the engine when a registration leaves them out.
        if not self.templates:
            object.__setattr__(self, "templates", f"games/{self.name}")
        if self.write_record is None:
            object.__setattr__(self, "write_record", self.engine.record)
        if self.read_record is None:
            object.__setattr__(self, "read_record", self.engine.replay)

    def template(self, name: str) -> str:
        return f"{self.templates}/{name}"

    @property
    def in_leagues(self) -> bool:
        return self.league_totals is not None

    @property
    def strongest_bot(self) -> str | None:
        """The name of its strongest bot (the first of `bot_choices`), None without bots:
        the picker's default, and the bot to give a player's seat to."""
        return self.bot_choices[0][0] if self.bot_choices else None

    def bot_menu(self) -> list[tuple[str, str, str]]:
        """(name, label, note) of each bot, strongest first, as the table page offers them."""
        return [(name, label, self.bot_notes.get(name, "")) for name, label in self.bot_choices]


class OptionsForm(forms.Form):
    """A game's options in the lobby's new-table form: its fields are added to TableForm."""

    @classmethod
    def options(cls, data: dict) -> dict:
        """The engine options (normalize_options' input) from the cleaned fields."""
        raise NotImplementedError

    @classmethod
    def check(cls, data: dict, players: int) -> None:
        """Refuse options that do not go together, or with `players` seats, before the
        engine does: raise forms.ValidationError({field: message}), so that the lobby
        says what to fix next to the field. `data` holds the fields that were valid."""


_KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Make a game playable: lobby, table page, services, records and leagues find it."""
    if kind.name in _KINDS:
        raise ValueError(f"game {kind.name!r} is already registered")
    if kind.name != kind.engine.KIND:
        raise ValueError(f"the engine of {kind.name!r} is {kind.engine.KIND!r}'s")
    longest = Seat._meta.get_field("bot").max_length
    too_long = [name for name in kind.bots if len(name) > longest]
    if too_long:
        raise ValueError(f"bot names longer than a seat keeps ({longest}): {too_long}")
    taken = set(kind.bots) & {name for other in _KINDS.values() for name in other.bots}
    if taken:
        raise ValueError(f"bot names already used by another game: {', '.join(sorted(taken))}")
    _KINDS[kind.name] = kind
    # engine.get(kind) is how the live layer finds the rules.
    engine.ENGINES[kind.name] = kind.engine
    return kind


def unregister(name: str) -> None:
    """Take a game out again (tests register a game of their own for a while)."""
    _KINDS.pop(name)
    engine.ENGINES.pop(name, None)


def get(name: str) -> Kind:
    """The registered game `name`; KeyError naming the known ones."""
    try:
        return _KINDS[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {name!r} (known: {', '.join(sorted(_KINDS))})") from None


def default() -> str:
    """The game of a table when none is named: the first registered (INSTALLED_APPS order)."""
    return next(iter(_KINDS))


def registered() -> list[Kind]:
    return list(_KINDS.values())


def choices() -> list[tuple[str, str]]:
    return [(kind.name, kind.label) for kind in _KINDS.values()]


def bot_label(name: str):
    """What a table shows of the bot `name` (lazy: translated where it is drawn)."""
    for kind in _KINDS.values():
        for value, label in kind.bot_choices:
            if value == name:
                return label
    return name


def bot_class(name: str) -> type:
    """The bot class named `name`, whatever its game; KeyError naming the known bots."""
    for kind in _KINDS.values():
        if name in kind.bots:
            return kind.bots[name]
    known = ", ".join(bot for kind in _KINDS.values() for bot in kind.bots)
    raise KeyError(f"unknown bot {name!r}; known bots: {known}")
