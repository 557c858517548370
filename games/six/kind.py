"""Six as the site plays it: its lobby options, summary, paper sheet, league scoring,
replay and live board, registered by its app (games.six.apps)."""

from django import forms
from django.utils import formats
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import paper, rendering
from games.kinds import Kind, OptionsForm
from games.six import bots as six_bots
from games.six import engine as six_engine
from games.six import replay
from games.six.engine.options import BALANCED_PLAYERS, HANDS_RANGE
from games.six.engine.options import DEFAULT_PLAYERS as SIX_DEFAULT_PLAYERS
from games.six.engine.options import DEFAULTS as SIX_DEFAULTS


class SixOptions(OptionsForm):
    """The options of RULES §3.5: the deck, the end (a target, or a fixed number of hands
    as in a duplicate round, RULES §5), the balanced deal (4 players)."""

    deck = forms.TypedChoiceField(
        label=_("Deck"),
        coerce=int,
        initial=40,
        choices=[(40, _("40 cards")), (48, _("48 cards (with 8s and 9s)"))],
    )
    # Not posted (a form of before it was offered): to the target.
    end = forms.TypedChoiceField(
        label=_("End of the game"),
        initial="target",
        required=False,
        empty_value="target",
        choices=[
            ("target", _("When a hand's winner reaches the target")),
            ("hands", _("After a fixed number of hands")),
        ],
    )
    target = forms.IntegerField(label=_("Target (points)"), min_value=5, max_value=200, initial=30)
    hands = forms.IntegerField(
        label=_("Number of hands"),
        min_value=HANDS_RANGE[0],
        max_value=HANDS_RANGE[1],
        initial=SIX_DEFAULT_PLAYERS,
        help_text=_("A multiple of the players, so that every seat opens as often."),
    )
    # The lobby shows each only for its end (static/js/lobby.js).
    shown_when = {"target": ("end", "target"), "hands": ("end", "hands")}
    balanced = forms.BooleanField(
        label=_("Balanced deal (4 players)"), required=False, initial=False
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        end = data["end"]
        return {"deck": data["deck"], "end": end, end: data[end], "balanced": data["balanced"]}

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


def hand_points_sheet(lines, players: int, *, most_left: int) -> tuple[list[list[int]], dict]:
    """A sheet of Six's points per hand (RULES §3.3): one winner with 5 plus every card left
    elsewhere, every other seat minus its cards left (1 to `most_left`). The rows are the
    cards left in each hand, as a game played here stores them."""
    lines = paper.sheet_lines(lines, players)
    rows = []
    for number, line in enumerate(lines, start=1):
        winners = [seat for seat, points in enumerate(line) if points > 0]
        left = [-points for points in line if points <= 0]
        if (
            len(winners) != 1
            or any(not 1 <= count <= most_left for count in left)
            or line[winners[0]] != 5 + sum(left)
        ):
            raise paper.SheetError(
                _(
                    "Hand %(round)s: one winner scores 5 plus the cards left in the other "
                    "hands; each other player scores minus their cards left (1 to %(most)s)."
                )
                % {"round": number, "most": most_left}
            )
        rows.append([0 if points > 0 else -points for points in line])
    totals = [sum(column) for column in zip(*lines, strict=True)]
    best = max(totals)
    result = {
        "rounds": lines,
        "totals": totals,
        "winners": [seat for seat, total in enumerate(totals) if total == best],
    }
    return rows, result


def _six_sheet(lines, players):
    # RULES §3.1: at most 48 cards dealt round the table.
    return hand_points_sheet(lines, players, most_left=-(-48 // players))


def _six_summary(options: dict) -> str:
    """How the game ends ("to 30 points", "8 hands"), then what differs from the usual game."""
    if options.get("end") == "hands":
        hands = options["hands"]
        parts = [ngettext("%(n)s hand", "%(n)s hands", hands) % {"n": hands}]
    else:
        target = options.get("target", SIX_DEFAULTS["target"])
        parts = [ngettext("to %(n)s point", "to %(n)s points", abs(target)) % {"n": target}]
    deck = options.get("deck", SIX_DEFAULTS["deck"])
    if deck != SIX_DEFAULTS["deck"]:
        parts.append(gettext("%(n)s cards") % {"n": deck})
    if options.get("balanced"):
        parts.append(gettext("balanced deal"))
    return ", ".join(parts)


def _event_options(event) -> dict:
    """A club evening's or tournament's tables: its rounds per game, if it fixes them, are
    Six's hands; else the engine's defaults (to 30 points)."""
    if event.game_rounds:
        return {"end": "hands", "hands": event.game_rounds}
    return {}


def _duplicate_options(options: dict, players: int) -> dict:
    """RULES §5: every table of a duplicate round plays the same number of hands, a
    multiple of the players so that every seat opens as often: the event's hands rounded
    up to one, or as many hands as players (every seat opens once)."""
    hands = options["hands"] if options.get("end") == "hands" else players
    hands = -(-hands // players) * players
    ending = {"end": "hands", "hands": hands}
    return {key: value for key, value in options.items() if key != "target"} | ending


def _board(v, seats, **_) -> dict:
    """What Six's own sections read besides the view: the last turn played (its hand's
    log is drawn from the view), and the end of the last hand, shown through the new
    hand's first turn round the table (its first turns may be passes)."""
    summary = None
    if v["phase"] != "over" and v["turn"] is not None and 1 <= v["turn"] <= v["summary_turns"]:
        summary = rendering.round_summary(v, seats, higher_wins=True)
    return {"last_turn": v["last_turn"], "round_summary": summary}


def _cards_in_hand(v, position) -> dict:
    # The players' section counts each seat's cards in hand (RULES 3.3: what it loses).
    return {"pile": {"cards": v["counts"][position], "heads": None}}


def points_amount(amount: float) -> str:
    """An amount of points in words, one decimal: the review's unit."""
    number = formats.number_format(amount, 1)
    # Decimals read as plural in English, singular below 2 in French.
    count = int(amount) if amount == int(amount) else (2 if amount > 1 else 0)
    return ngettext("%(n)s point", "%(n)s points", count) % {"n": number}


def describe_decision(decision: dict) -> str:
    """The card a decision plays, in words ("7 of copas")."""
    from games.six.templatetags.spanish import scard_name

    return scard_name(decision["card"])


def replay_steps(game) -> list[int]:
    """The replay's step of each decision: the step after its card (one per card)."""
    return list(range(1, game.decisions.count() + 1))


SIX = Kind(
    name=six_engine.KIND,
    label=_("Six"),
    engine=six_engine,
    options_form=SixOptions,
    players=range(six_engine.MIN_PLAYERS, six_engine.MAX_PLAYERS + 1),
    summary=_six_summary,
    bots=six_bots.BOTS,
    bot_choices=six_bots.BOT_CHOICES,
    bot_notes=six_bots.BOT_NOTES,
    replay_context=replay.six_replay_context,
    league_totals=hand_points,
    event_options=_event_options,
    duplicate_options=_duplicate_options,
    higher_wins=True,
    score_label=_("Points"),
    per_round_label=_("Points per hand"),
    paper_sheet=_six_sheet,
    sheet_lines=lambda options: options.get("hands") if options.get("end") == "hands" else None,
    stylesheet="games/six/table.css",
    board_context=_board,
    player_context=_cards_in_hand,
    script="games/six/reveal.js",
    describe_decision=describe_decision,
    describe_amount=points_amount,
    replay_steps=replay_steps,
)
