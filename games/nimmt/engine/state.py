"""The state of a 6 qui prend ! game, and its exact JSON round trip.

A `State` is never changed once it has been handed out: `apply` copies it (a shallow
copy of ~20 references) and replaces whole fields, and every field is an int, a str or
a tuple of ints/tuples, so sharing between the old and the new state is safe. That is
what keeps `apply` both pure and fast (RULES is indifferent; the benchmark is not).

Fields (seats 0-based, rounds and turns 1-based):

- `players`, `options` (normalised, never mutated), `seed`, `version` (decisions accepted)
- `round`: the round being played; `phase`: "draft" | "select" | "choose_row" | "over"
- `rows`: 4 tuples of cards (empty during a draft)
- `hands`: the cards each seat still holds, a sorted tuple per seat
- `selections`: per seat, the card selected this turn or 0 for none yet. While cards
  are being placed ("choose_row") it holds the whole turn's revealed cards.
- `pending`: revealed cards not yet placed, lowest first (their seats are found in
  `selections`); in "choose_row" the first one is the too-low card whose player must
  choose a row (RULES §1.4)
- `choices`: `(seat, row)` pairs chosen so far this turn
- `turns`: this round's finished turns, each `(cards per seat, choices)`
- `piles`: the cards each seat took this round (its penalty pile, RULES §1.5)
- `round_scores`: heads per seat of each finished round; `totals`: their sums
- `pool`: cards still to pick in a draft; `picks`: the cards picked this round, in order
  (the picker of pick k is `(first picker + k) % players`, RULES §1.7)
- `start_rows`, `start_hands`: this round's rows and hands when play began (for records)
- `history`: finished rounds, each `(start_rows, start_hands, picks or None, turns)`
"""

FIELDS = (
    "players",
    "options",
    "seed",
    "version",
    "round",
    "phase",
    "rows",
    "hands",
    "selections",
    "pending",
    "choices",
    "turns",
    "piles",
    "round_scores",
    "totals",
    "pool",
    "picks",
    "start_rows",
    "start_hands",
    "history",
)

SCHEMA = 1


class State:
    __slots__ = FIELDS

    def __init__(self, **fields):
        for name in FIELDS:
            setattr(self, name, fields[name])

    def copy(self):
        """A shallow copy, for `apply` to change before handing it out."""
        new = _blank(State)
        new.players = self.players
        new.options = self.options
        new.seed = self.seed
        new.version = self.version
        new.round = self.round
        new.phase = self.phase
        new.rows = self.rows
        new.hands = self.hands
        new.selections = self.selections
        new.pending = self.pending
        new.choices = self.choices
        new.turns = self.turns
        new.piles = self.piles
        new.round_scores = self.round_scores
        new.totals = self.totals
        new.pool = self.pool
        new.picks = self.picks
        new.start_rows = self.start_rows
        new.start_hands = self.start_hands
        new.history = self.history
        return new

    @property
    def turn(self):
        """The turn being played, 1-based; None during a draft or once the game is over."""
        if self.phase in ("select", "choose_row"):
            return len(self.turns) + 1
        return None

    @property
    def first_picker(self):
        """Who picks first in this round's draft: seat 0 in round 1, then rotating (§1.7)."""
        return (self.round - 1) % self.players

    @property
    def to_pick(self):
        if self.phase != "draft":
            return None
        return (self.first_picker + len(self.picks)) % self.players

    @property
    def chooser(self):
        if self.phase != "choose_row":
            return None
        return self.selections.index(self.pending[0])

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in FIELDS)

    __hash__ = None

    def __repr__(self):
        return (
            f"<nimmt State round={self.round} phase={self.phase} turn={self.turn} "
            f"version={self.version}>"
        )


_blank = object.__new__


def _tuples(value):
    """Lists (from JSON) back to the tuples a State is made of, at every depth."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _lists(value):
    if isinstance(value, tuple):
        return [_lists(item) for item in value]
    return value


def _dumped(name, value):
    if name == "options":
        return dict(value)
    if name == "history":
        return [
            {
                "rows": _lists(rows),
                "hands": _lists(hands),
                "picks": _lists(picks),
                "turns": _lists(turns),
            }
            for rows, hands, picks, turns in value
        ]
    return _lists(value)


def dump(state):
    """A JSON-safe dict of the whole state, secrets included: for the server's snapshot."""
    data = {"kind": "nimmt", "schema": SCHEMA}
    for name in FIELDS:
        data[name] = _dumped(name, getattr(state, name))
    return data


def _loaded(name, value):
    if name == "options":
        return dict(value)
    if name == "history":
        return tuple(
            (
                _tuples(entry["rows"]),
                _tuples(entry["hands"]),
                _tuples(entry["picks"]),
                _tuples(entry["turns"]),
            )
            for entry in value
        )
    return _tuples(value)


def load(data):
    """The State that `dump` made `data` from: `load(dump(s)) == s`."""
    if data.get("kind") != "nimmt" or data.get("schema") != SCHEMA:
        raise ValueError("not a dump of a 6 qui prend ! state (schema 1)")
    return State(**{name: _loaded(name, data[name]) for name in FIELDS})
