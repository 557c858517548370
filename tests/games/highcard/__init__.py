"""Higher card wins, a second game kind that exists only in tests: its registration.

Everything a game provides (docs/engines.md, "Adding a game"): the engine, the options
form (none here), the templates (templates/games/highcard/), a bot, the record format
(the engine's record/replay), the replay viewer's context, and no league scoring.
"""

from pathlib import Path

from django.utils.translation import gettext_lazy as _

from games import kinds, replays

from . import engine
from .bot import RandomBot

TEMPLATES = Path(__file__).parent / "templates"


class HighcardOptions(kinds.OptionsForm):
    """The game has no options."""

    @classmethod
    def options(cls, data: dict) -> dict:
        return {}


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
            {"name": name, "cards": hand} for name, hand in zip(names, state.hands, strict=True)
        ],
        "totals": [{"name": name, "total": p} for name, p in zip(names, state.points, strict=True)],
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(states) - 1 else None,
    }


HIGHCARD = kinds.Kind(
    name=engine.KIND,
    label=_("Higher card wins"),
    engine=engine,
    options_form=HighcardOptions,
    players=range(engine.PLAYERS, engine.PLAYERS + 1),
    bots={RandomBot.name: RandomBot},
    bot_choices=[(RandomBot.name, _("Random bot"))],
    replay_context=replay_context,
)
