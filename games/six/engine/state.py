"""The state of a game of Six, and its exact JSON round trip.

A `State` is never changed once it has been handed out: `apply` copies it and replaces
whole fields, and every field is an int, a str, None, a dict never mutated (options) or
a tuple, so sharing between the old and the new state is safe.

Fields (seats 0-based; `round`, the hand being played, 1-based — a "round" is a hand):

- `players`, `options` (normalised), `seed`, `version` (decisions accepted: plays only;
  automatic passes are not decisions)
- `phase`: "select" while a hand is played (the decision is a `select` message), "over"
- `hands`: the cards each seat still holds, a tuple per seat in deck order
- `table`: per suit (oros, copas, espadas, bastos), `()` while its 6 is not down, else
  `(lowest rank, highest rank)` of its sequence on the table (RULES 3.2)
- `opener`: the seat that had the first turn of this hand (RULES 3.5)
- `to_move`: the seat whose turn it is; None once the game is over
- `turns`: this hand's turns so far, `(seat, card)` or `(seat, None)` for a pass
- `start_hands`: this hand's deal, a tuple per seat in deck order
- `round_scores`: points per seat of each finished hand; `totals`: their sums
- `history`: finished hands, each `(start_hands, turns)`
"""

from dataclasses import dataclass, fields, replace

SCHEMA = 1


@dataclass(eq=True, slots=True)
class State:
    players: int
    options: dict
    seed: int
    version: int
    round: int
    phase: str
    hands: tuple
    table: tuple
    opener: int
    to_move: int | None
    turns: tuple
    start_hands: tuple
    round_scores: tuple
    totals: tuple
    history: tuple

    __hash__ = None

    def copy(self):
        """A shallow copy, for `apply` to change before handing it out."""
        return replace(self)

    @property
    def turn(self):
        """The turn being played in this hand, 1-based; None once the game is over."""
        return None if self.phase == "over" else len(self.turns) + 1

    def __repr__(self):
        return (
            f"<six State round={self.round} phase={self.phase} turn={self.turn} "
            f"to_move={self.to_move} version={self.version}>"
        )


FIELDS = tuple(field.name for field in fields(State))


def _tuples(value):
    """Lists (from JSON) back to the tuples a State is made of, at every depth."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _lists(value):
    if isinstance(value, tuple):
        return [_lists(item) for item in value]
    return value


def dump(state):
    """A JSON-safe dict of the whole state, secrets included: for the server's snapshot."""
    data = {"kind": "six", "schema": SCHEMA}
    for name in FIELDS:
        value = getattr(state, name)
        data[name] = dict(value) if name == "options" else _lists(value)
    return data


def load(data):
    """The State that `dump` made `data` from: `load(dump(s)) == s`."""
    if data.get("kind") != "six" or data.get("schema") != SCHEMA:
        raise ValueError("not a dump of a Six state (schema 1)")
    values = {}
    for name in FIELDS:
        value = data[name]
        values[name] = dict(value) if name == "options" else _tuples(value)
    return State(**values)
