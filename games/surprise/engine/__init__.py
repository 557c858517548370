"""6 qui surprend (RULES §2 and §4.2) behind the engine interface of docs/engines.md.

    from games import engine
    surprise = engine.get("surprise")
    state = surprise.new_game(players=4, options={}, seed=7)
    state, events = surprise.apply(state, 0, {"type": "select", "card": 44, "special": "stop"})

Decisions (dicts; rows and positions 0-based), each asked when RULES 2.5 says, even when
one option only is legal; `legal(state, seat)` lists them and `to_act` names the seat:

- `{"type": "select", "card": 44, "special": None | "stop" | ...}`: the secret selection
  with at most one attached special (never "negatif_positif"); may be sent again until
  the last seat has selected.
- `{"type": "remplacer", "card": 17 | None}`: the card brought in, or None to keep.
- `{"type": "row", "row": 2}`: the unstopped row a too-low card takes.
- `{"type": "inserer", "row": 1, "position": 0}`: position 0 … len−1 (0 in an empty row).
- `{"type": "glisser", "from": [row, index], "to": [row, position]}`.
- `{"type": "stop", "row": 3}`: a row without a Stop.
- `{"type": "negatif_positif", "card": 11 | None, "extras": [10, 2]}`: a card just taken
  and cards of the own pile within its heads; "card" and "extras" None to pass.
- `{"type": "exchange", "special": "stop" | None}`: the special given away, or None.

Phases: "select", then while a turn resolves the awaited decision's: "remplacer",
"choose_row", "inserer", "glisser", "stop", "negatif_positif", "exchange"; "over".
The events and the view are described in docs/engines.md ("6 qui surprend decisions,
events and view"); the decisions this engine takes where RULES is silent are listed
there too.
"""

from .cards import HEADS, KINDS, heads
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
