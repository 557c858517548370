"""6 qui prend ! (RULES §1 and §4) behind the engine interface of docs/engines.md.

    from games import engine
    nimmt = engine.get("nimmt")
    state = nimmt.new_game(players=4, options={}, seed=7)
    state, events = nimmt.apply(state, 0, {"type": "select", "card": state.hands[0][0]})

Bots that simulate many rounds use `games.nimmt.engine.core` directly.
"""

from .cards import HEADS, deck, heads
from .log import log
from .options import normalize_options
from .records import FORMAT, record, replay
from .rules import DECISIONS, KIND, apply, fallback, is_over, legal, new_game, result, to_act
from .state import State, dump, load
from .view import view

__all__ = [
    "DECISIONS",
    "FORMAT",
    "HEADS",
    "KIND",
    "State",
    "apply",
    "deck",
    "dump",
    "fallback",
    "heads",
    "is_over",
    "legal",
    "load",
    "log",
    "new_game",
    "normalize_options",
    "record",
    "replay",
    "result",
    "to_act",
    "view",
]
