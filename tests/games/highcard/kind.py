"""Higher card wins as the site plays it, everything a game provides (docs/engines.md,
"Adding a game"): its lobby option (a required one), its one-line summary, its bot, its
board, players' lines and hand for the live table, its replay viewer. The record is the
engine's; no league scoring, no paper sheet.
"""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import replays
from games.kinds import Kind, OptionsForm

from . import engine
from .bot import RandomBot


class HighcardOptions(OptionsForm):
    """How many turns win the game: a field the lobby cannot leave out."""

    target = forms.IntegerField(
        label=_("Points to win"),
        min_value=engine.TARGETS[0],
        max_value=engine.TARGETS[-1],
        initial=engine.DEFAULTS["target"],
        required=True,
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        return {"target": data["target"]}


def summary(options: dict) -> str:
    target = options.get("target", engine.DEFAULTS["target"])
    return ngettext("first to %(n)s point", "first to %(n)s points", target) % {"n": target}


def board(v, seats, **_) -> dict:
    """The face-up cards of the last turn, each by its player, the winner's marked; and
    every finished turn (`tricks`). `reveal` names the turn, for its animation."""
    tricks = [
        {
            "number": number,
            "cards": [
                {"name": seats[seat].name, "card": card, "won": seat == turn["winner"]}
                for seat, card in enumerate(turn["cards"])
            ],
        }
        for number, turn in enumerate(v["turns"], 1)
    ]
    return {
        "faces": tricks[-1]["cards"] if tricks else None,
        "reveal": len(tricks) or None,
        "tricks": tricks,
    }


def player_line(v, position) -> dict:
    return {"selected": v["selected"][position]}


def hand(view) -> dict:
    return {"cards": view["hand"] or [], "my_selection": view["my_selection"]}


def selection(view):
    return view["my_selection"]


def replay_context(game, step: int) -> dict:
    """The game after `step` turns (0: the deal), every hand shown: the game is over."""
    states = [state for state, _events in replays.rebuild(game) if not any(state.selections)]
    step = max(0, min(step, len(states) - 1))
    state = states[step]
    names = replays.player_names(game)
    return {
        "game": game,
        "table": game.table,
        "step": step,
        "steps": len(states) - 1,
        "turns": [dict(zip(names, cards, strict=True)) for cards in state.played],
        "hands": [
            {"name": name, "cards": cards} for name, cards in zip(names, state.hands, strict=True)
        ],
        "totals": [{"name": name, "total": p} for name, p in zip(names, state.points, strict=True)],
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(states) - 1 else None,
    }


HIGHCARD = Kind(
    name=engine.KIND,
    label=_("Higher card wins"),
    engine=engine,
    options_form=HighcardOptions,
    players=range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1),
    summary=summary,
    bots={RandomBot.name: RandomBot},
    bot_choices=[(RandomBot.name, _("Random bot"))],
    replay_context=replay_context,
    higher_wins=True,
    score_label=_("Points"),
    per_round_label=_("Points per game"),
    board_context=board,
    player_context=player_line,
    hand_context=hand,
    selection=selection,
    # Its face-up cards above the hand; the turns won below it, then what every game has.
)
