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
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import engine, paper
from games.models import BOT_CHOICES, Seat
from games.nimmt import engine as nimmt_engine
from games.nimmt.bots import BOTS as NIMMT_BOTS
from games.nimmt.engine.options import DEFAULTS as NIMMT_DEFAULTS
from games.nimmt.engine.options import MAX_PLAYERS, MIN_PLAYERS
from games.six import bots as six_bots
from games.six import engine as six_engine
from games.six.engine.options import BALANCED_PLAYERS
from games.six.engine.options import DEFAULTS as SIX_DEFAULTS
from games.surprise import bots as surprise_bots
from games.surprise import engine as surprise_engine
from games.surprise.bots.usage import SpecialUsage


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
    # (name, label) of each bot, as the table page offers them.
    bot_choices: list = field(default_factory=list)
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
    # What `manage.py simulate` watches in this game's games besides points and times:
    # (seat bots' names) -> an object told `after(before, seat, decision, state, events,
    # bots)` of each decision and `game_over()`, whose `report()` is printed.
    simulation_watch: Callable | None = None
    # A score sheet written on paper (lines in the game's unit, `players` seats) -> the
    # score sheet rows and the result a game played here leaves; games.paper.SheetError
    # when it cannot be this game's. None: the game is not entered on paper.
    paper_sheet: Callable | None = None

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


# --- 6 qui prend ! -------------------------------------------------------------------------


class NimmtOptions(OptionsForm):
    """Every option of RULES §1.5–1.8."""

    end = forms.ChoiceField(
        label=_("End of the game"),
        initial="threshold",
        choices=[
            ("threshold", _("When a player reaches the threshold")),
            ("rounds", _("After a fixed number of rounds")),
        ],
    )
    threshold = forms.IntegerField(
        label=_("Threshold (heads)"), min_value=1, max_value=500, initial=66
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=20,
        initial=1,
        help_text=_("1 is the single-round variant."),
    )
    # A field that applies only for one value of another: the lobby shows it only then
    # (static/js/lobby.js), and a value in it refuses nothing otherwise (TableForm.clean).
    shown_when = {"threshold": ("end", "threshold"), "rounds": ("end", "rounds")}
    deal = forms.ChoiceField(
        label=_("Deal"),
        initial="random",
        choices=[
            ("random", _("Random deal")),
            ("draft", _("Draft: each player picks their cards")),
        ],
    )
    card_limit = forms.BooleanField(
        label=_("Tactical: only cards 1 to 10 × players + 4"), required=False
    )
    live_scores = forms.BooleanField(
        label=_("Show scores during the round"), required=False, initial=True
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        options = {
            "card_limit": data["card_limit"],
            "deal": data["deal"],
            "end": data["end"],
            "live_scores": data["live_scores"],
        }
        if data["end"] == "threshold":
            options["threshold"] = data["threshold"]
        else:
            options["rounds"] = data["rounds"]
        return options


def column_totals(sheet) -> tuple[int, ...]:
    """Each seat's points over the rounds: heads taken, for 6 qui prend !."""
    return tuple(sum(column) for column in zip(*sheet, strict=True))


def most_heads(cards_in_play: int) -> int:
    """The most heads a round can hold: those of its heaviest cards (RULES §1.1)."""
    return sum(sorted(nimmt_engine.HEADS, reverse=True)[:cards_in_play])


def _nimmt_sheet(lines, players):
    # RULES §1.2: 10 cards a player and 4 rows.
    return paper.heads_sheet(lines, players, most=most_heads(10 * players + 4))


def _nimmt_replay(game, step):
    from games import replays  # replays reads the registry: imported when first needed

    return replays.nimmt_replay_context(game, step)


def _nimmt_summary(options: dict) -> str:
    """How the game ends ("to 66 heads", "3 rounds"), then the variants it plays."""
    if options.get("end") == "rounds":
        rounds = options["rounds"]
        parts = [ngettext("%(n)s round", "%(n)s rounds", abs(rounds)) % {"n": rounds}]
    else:
        threshold = options.get("threshold", NIMMT_DEFAULTS["threshold"])
        parts = [ngettext("to %(n)s head", "to %(n)s heads", abs(threshold)) % {"n": threshold}]
    if options.get("card_limit"):
        parts.append(gettext("tactical"))
    if options.get("deal") == "draft":
        parts.append(gettext("draft"))
    if not options.get("live_scores", True):
        parts.append(gettext("scores at round end"))
    return ", ".join(parts)


NIMMT = register(
    Kind(
        name=nimmt_engine.KIND,
        label=_("6 qui prend !"),
        engine=nimmt_engine,
        options_form=NimmtOptions,
        players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        summary=_nimmt_summary,
        bots=NIMMT_BOTS,
        bot_choices=BOT_CHOICES,
        replay_context=_nimmt_replay,
        league_totals=column_totals,
        event_options=lambda event: event.table_options(),
        paper_sheet=_nimmt_sheet,
    )
)

# The game of a table when none is named (the lobby's first choice, leagues' tables).
DEFAULT = NIMMT.name


# --- Six -----------------------------------------------------------------------------------


class SixOptions(OptionsForm):
    """The options of RULES §3.5: the deck, the target, the balanced deal (4 players)."""

    deck = forms.TypedChoiceField(
        label=_("Deck"),
        coerce=int,
        initial=40,
        choices=[(40, _("40 cards")), (48, _("48 cards (with 8s and 9s)"))],
    )
    target = forms.IntegerField(label=_("Target (points)"), min_value=5, max_value=200, initial=30)
    balanced = forms.BooleanField(
        label=_("Balanced deal (4 players)"), required=False, initial=False
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        return {"deck": data["deck"], "target": data["target"], "balanced": data["balanced"]}

    @classmethod
    def check(cls, data: dict, players: int) -> None:
        # RULES 3.5: the balanced deal shares the 40 or 48 cards between 4 hands only.
        if data.get("balanced") and players != BALANCED_PLAYERS:
            message = _("A balanced deal is for %(n)s players: choose %(n)s players or untick it.")
            raise forms.ValidationError(
                {"balanced": forms.ValidationError(message, params={"n": BALANCED_PLAYERS})}
            )


def hand_points(sheet) -> tuple[int, ...]:
    """Each seat's points over the hands (RULES §3.3) from the cards left in each hand:
    the seat left with none scores 5 plus the others' cards, the others lose theirs."""
    totals = [0] * len(sheet[0]) if sheet else []
    for left in sheet:
        for seat, count in enumerate(left):
            totals[seat] += 5 + sum(left) if count == 0 else -count
    return tuple(totals)


def _six_sheet(lines, players):
    # RULES §3.1: at most 48 cards dealt round the table.
    return paper.hand_points_sheet(lines, players, most_left=-(-48 // players))


def _six_replay(game, step):
    from games import replays

    return replays.six_replay_context(game, step)


def _six_summary(options: dict) -> str:
    """The target ("to 30 points"), then what differs from the usual game."""
    target = options.get("target", SIX_DEFAULTS["target"])
    parts = [ngettext("to %(n)s point", "to %(n)s points", abs(target)) % {"n": target}]
    deck = options.get("deck", SIX_DEFAULTS["deck"])
    if deck != SIX_DEFAULTS["deck"]:
        parts.append(gettext("%(n)s cards") % {"n": deck})
    if options.get("balanced"):
        parts.append(gettext("balanced deal"))
    return ", ".join(parts)


SIX = register(
    Kind(
        name=six_engine.KIND,
        label=_("Six"),
        engine=six_engine,
        options_form=SixOptions,
        players=range(six_engine.MIN_PLAYERS, six_engine.MAX_PLAYERS + 1),
        summary=_six_summary,
        bots=six_bots.BOTS,
        bot_choices=six_bots.BOT_CHOICES,
        replay_context=_six_replay,
        league_totals=hand_points,
        higher_wins=True,
        score_label=_("Points"),
        per_round_label=_("Points per hand"),
        paper_sheet=_six_sheet,
    )
)


# --- 6 qui surprend ------------------------------------------------------------------------


class SurpriseOptions(OptionsForm):
    """RULES §2.5: of the §1 options only `live_scores` applies (always 2 rounds of 12)."""

    live_scores = forms.BooleanField(
        label=_("Show scores during the round"), required=False, initial=True
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        return {"live_scores": data["live_scores"]}


def _surprise_sheet(lines, players):
    # RULES §2.5: 12 cards a player and 4 rows (5 with 5e série: one more card).
    return paper.heads_sheet(lines, players, most=most_heads(12 * players + 5))


def _surprise_replay(game, step):
    from games import replays

    return replays.surprise_replay_context(game, step)


def _surprise_summary(options: dict) -> str:
    """Always the same game (RULES §2.5): its rounds, its specials, and when scores show."""
    rounds = surprise_engine.cards.ROUNDS
    parts = [ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds}, gettext("specials")]
    if not options.get("live_scores", True):
        parts.append(gettext("scores at round end"))
    return ", ".join(parts)


SURPRISE = register(
    Kind(
        name=surprise_engine.KIND,
        label=_("6 qui surprend"),
        engine=surprise_engine,
        options_form=SurpriseOptions,
        players=range(surprise_engine.cards.MIN_PLAYERS, surprise_engine.cards.MAX_PLAYERS + 1),
        summary=_surprise_summary,
        bots=surprise_bots.BOTS,
        bot_choices=surprise_bots.BOT_CHOICES,
        replay_context=_surprise_replay,
        # Heads per round, fewer is better: the same sheet as 6 qui prend !'s.
        league_totals=column_totals,
        paper_sheet=_surprise_sheet,
        simulation_watch=SpecialUsage,
    )
)
