"""The state of a 6 qui surprend game, and its exact JSON round trip.

A `State` is never changed once handed out: `apply` copies it and replaces whole fields.
Every field is an int, a str, None, or a tuple of those (at any depth), except `options`
(a dict never mutated), so `dump` and `load` are a plain lists/tuples conversion.

Fields (seats 0-based, rows 0-based in table order, rounds and turns 1-based):

- `players`, `options` (normalised), `seed`, `version` (decisions accepted)
- `round`; `phase`: "select" | "remplacer" | "choose_row" | "inserer" | "glisser" |
  "stop" | "negatif_positif" | "exchange" | "over"
- `rows`: 4 or 5 tuples of number cards, last card last; `stops`, `caps`: per row, True
  when a Stop lies on it / when a 7 qui surprend caps it
- `hands`: the number cards each seat holds, sorted; `specials`: each seat's specials
  in hand, sorted by name
- `draw`: the face-down draw pile, top first; `discard`: the face-up discard pile, in
  the order the specials went there; `box`: number cards removed this round by
  Négatif = Positif (out until the round ends)
- `piles`: the cards each seat took this round, in the order taken
- `selections`, `attached`: per seat, the card selected this turn (0: none yet) and the
  special attached (None). From the reveal until the turn is over they hold the cards
  and specials as revealed.
- during a turn's resolution (else empty / None): `cards` (per seat, the card it plays
  after Remplacer), `pending` (cards not yet placed, the one resolving first), `riding`
  (per seat, the special still travelling with its card: not yet used, returned or
  laid), `answers` (the decisions made since the reveal, `(seat, kind, value)`),
  `prompt` (`(seat, kind, cards just taken)` of the decision awaited), `emitted`
  (events this turn's resolution has produced), `base` (the table as it was just
  before the reveal: the resolution is re-run from it with `answers`, see rules.py)
- `turns`: this round's finished turns, each `(cards, specials, decisions)` as in the
  record (RULES §4.2); `reshuffles`: the draw piles made from the discard this round
- `start_rows`, `start_hands`: this round's deal; `specials_order`: the 28 specials
  after the first shuffle, top first
- `round_scores`: heads per seat of each finished round; `totals`: their sums
- `history`: finished rounds, each `(start_rows, start_hands, reshuffles, turns)`
- `given`: None, or what a replayed record imposes instead of the seeded shuffles:
  `(specials order, deals ((rows, hands) per round), reshuffles per round)`
"""

FIELDS = (
    "players",
    "options",
    "seed",
    "version",
    "round",
    "phase",
    "rows",
    "stops",
    "caps",
    "hands",
    "specials",
    "draw",
    "discard",
    "box",
    "piles",
    "selections",
    "attached",
    "cards",
    "pending",
    "riding",
    "answers",
    "prompt",
    "emitted",
    "base",
    "turns",
    "reshuffles",
    "start_rows",
    "start_hands",
    "specials_order",
    "round_scores",
    "totals",
    "history",
    "given",
)

# The fields the resolution of a turn changes; `base` keeps them as they were at the reveal.
TABLE_FIELDS = (
    "rows",
    "stops",
    "caps",
    "hands",
    "specials",
    "draw",
    "discard",
    "box",
    "piles",
    "reshuffles",
)

SCHEMA = 1


class State:
    __slots__ = FIELDS

    def __init__(self, **fields):
        for name in FIELDS:
            setattr(self, name, fields[name])

    def copy(self):
        """A shallow copy, for `apply` to change before handing it out."""
        new = object.__new__(State)
        for name in FIELDS:
            setattr(new, name, getattr(self, name))
        return new

    @property
    def turn(self):
        """The turn being played, 1-based; None once the game is over."""
        if self.phase == "over":
            return None
        return len(self.turns) + 1

    @property
    def resolving(self):
        """True from the reveal until the turn's last card and decision are done."""
        return self.phase not in ("select", "over")

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in FIELDS)

    __hash__ = None

    def __repr__(self):
        return (
            f"<surprise State round={self.round} phase={self.phase} turn={self.turn} "
            f"version={self.version}>"
        )


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _lists(value):
    if isinstance(value, tuple):
        return [_lists(item) for item in value]
    return value


def dump(state):
    """A JSON-safe dict of the whole state, secrets included: for the server's snapshot."""
    data = {"kind": "surprise", "schema": SCHEMA}
    for name in FIELDS:
        value = getattr(state, name)
        data[name] = dict(value) if name == "options" else _lists(value)
    return data


def load(data):
    """The State that `dump` made `data` from: `load(dump(s)) == s`."""
    if data.get("kind") != "surprise" or data.get("schema") != SCHEMA:
        raise ValueError("not a dump of a 6 qui surprend state (schema 1)")
    fields = {}
    for name in FIELDS:
        value = data[name]
        fields[name] = dict(value) if name == "options" else _tuples(value)
    return State(**fields)
