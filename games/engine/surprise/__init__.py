"""6 qui surprend (RULES §2 and §4.2) behind the engine interface of docs/engines.md."""

from .cards import HEADS, KINDS, heads
from .options import normalize_options
from .records import FORMAT, record, replay
from .rules import KIND, apply, fallback, is_over, legal, new_game, result, to_act
from .state import State, dump, load
from .view import view

__all__ = [
    "FORMAT",
    "HEADS",
    "KIND",
    "KINDS",
    "State",
    "apply",
    "dump",
    "fallback",
    "heads",
    "is_over",
    "legal",
    "load",
    "new_game",
    "normalize_options",
    "record",
    "replay",
    "result",
    "to_act",
    "view",
]
