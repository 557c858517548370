"""Six, the Spanish-deck game (RULES §3 and §4.3), behind the engine interface of
docs/engines.md.

    from games import engine
    six = engine.get("six")
    state = six.new_game(players=4, options={}, seed=7)
    seat = six.to_act(state)[0]
    state, events = six.apply(state, seat, {"type": "select", "card": "6-oros"})

Cards are short strings `rank-suit` ("6-oros", "10-copas"); see `cards`.
"""

from .cards import SUITS, deck
from .options import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, normalize_options
from .records import FORMAT, record, replay
from .rules import (
    DECISIONS,
    KIND,
    apply,
    fallback,
    is_over,
    legal,
    new_game,
    playable,
    result,
    to_act,
)
from .state import State, dump, load
from .view import view

__all__ = [
    "DECISIONS",
    "DEFAULT_PLAYERS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "FORMAT",
    "KIND",
    "SUITS",
    "State",
    "apply",
    "deck",
    "dump",
    "fallback",
    "is_over",
    "legal",
    "load",
    "new_game",
    "normalize_options",
    "playable",
    "record",
    "replay",
    "result",
    "to_act",
    "view",
]
