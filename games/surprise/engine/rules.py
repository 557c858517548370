"""6 qui surprend as pure functions: a state and a decision in, a new state and events out.

Everything RULES §2 says (with the decisions of §2.5 and the fallbacks of §2.6) is encoded
here; placing a card is §1.4's rule, `games.nimmt.engine.placing.target_row_any`, shared with
6 qui prend !.

How a turn is resolved. Once the last seat has selected, the cards are revealed and
resolved (RULES 2.5, "Order of a turn"); on the way the rules may ask a player for a
decision (Remplacer, a too-low row, Insérer, Glisser, Stop, Négatif = Positif,
exchange). The resolution is written as one straight procedure (`_Table.play_turn`) that
asks for each decision in turn; when a decision has not been made yet it stops there
(`_Pause`) and the state records the question (`prompt`). Each later decision is added to
`answers` and the procedure runs again from the table as it was at the reveal (`base`):
it is deterministic (shuffles come from the seed, or from a replayed record), so it
reaches the same point, takes the decisions made so far, and goes one step further.
A turn holds a few decisions at most, so running it again costs little, and the rule
text stays in one readable order instead of a state machine.
"""

from games.engine.errors import IllegalDecision
from games.nimmt.engine.dealing import draw as shuffled
from games.nimmt.engine.placing import target_row_any

from .cards import (
    CINQUIEME,
    GLISSER,
    HAND_SIZE,
    HEADS,
    INSERER,
    KINDS,
    NEGATIF,
    NUMBERS,
    REMPLACER,
    ROUNDS,
    ROW_COUNT,
    ROW_LIMIT,
    SEPT,
    SPECIALS,
    SPECIALS_DEALT,
    STOP,
    STOP_LIMIT,
    row_heads,
)
from .options import normalize_options
from .state import TABLE_FIELDS, State

KIND = "surprise"
# Each decision and its fields' types (games.protocol checks a message's): a selection
# with the special attached to it (or null), and the answers to each prompt.
DECISIONS = {
    "select": {"card": int, "special": str | None},
    "remplacer": {"card": int | None},
    "row": {"row": int},
    "inserer": {"row": int, "position": int},
    "glisser": {"from": list, "to": list},
    "stop": {"row": int},
    "negatif_positif": {"card": int | None, "extras": list | None},
    "exchange": {"special": str | None},
}

# The decisions asked during a turn's resolution, by their record name (RULES §4.2), and
# the phase the game is in while one is awaited. "row" keeps 6 qui prend !'s phase name.
PHASES = {
    "remplacer": "remplacer",
    "row": "choose_row",
    "inserer": "inserer",
    "glisser": "glisser",
    "stop": "stop",
    "negatif_positif": "negatif_positif",
    "exchange": "exchange",
}
PROMPT_OF_PHASE = {phase: kind for kind, phase in PHASES.items()}
# Not playing Négatif = Positif after one's take (RULES 2.4, optional; the §2.6 fallback).
PASS_NEGATIF = {"type": "negatif_positif", "card": None, "extras": None}


class GivenError(IllegalDecision):
    """A replayed record imposes a shuffle the game cannot use (RULES §4.2: a reshuffle
    missing, one given when none is, or a new draw pile that is not the discard pile).
    Carries the round (1-based) and the seat whose draw needed it, when there is one."""

    def __init__(self, message, *, round, seat=None):
        super().__init__(message)
        self.round = round
        self.seat = seat


class _Pause(Exception):  # noqa: N818 - not an error: the resolution waits for a decision
    def __init__(self, prompt):
        super().__init__(prompt)
        self.prompt = prompt


def _key(seed, round_no, purpose):
    return f"surprise/{seed}/{round_no}/{purpose}"


# --- starting a game -----------------------------------------------------------------------


def new_game(*, players, options, seed):
    """A game ready for its first decision: round 1 dealt, three specials each."""
    return start(players=players, options=options, seed=seed)


def start(*, players, options, seed, given=None):
    """`new_game`, or with `given` the shuffles a replayed record imposes (see State)."""
    options = normalize_options(options, players)
    if type(seed) is not int:
        raise TypeError(f"seed must be an integer, not {seed!r}")
    if given is None:
        # RULES 2.1: the 28 specials are shuffled once; the rest of the game draws from them.
        order = tuple(shuffled(_key(seed, 0, "specials"), SPECIALS, len(SPECIALS)))
    else:
        order = tuple(given[0])
    empty = ((),) * players
    state = State(
        players=players,
        options=options,
        seed=seed,
        version=0,
        round=1,
        phase="select",
        rows=(),
        stops=(),
        caps=(),
        hands=empty,
        specials=empty,
        draw=order,
        discard=(),
        box=(),
        piles=empty,
        selections=(0,) * players,
        attached=(None,) * players,
        cards=(),
        pending=(),
        riding=(),
        answers=(),
        prompt=None,
        emitted=0,
        base=None,
        turns=(),
        reshuffles=(),
        start_rows=(),
        start_hands=(),
        specials_order=order,
        round_scores=(),
        totals=(0,) * players,
        history=(),
        given=given,
    )
    table = _Table(state, tuple(getattr(state, name) for name in TABLE_FIELDS))
    table.deal_round([])
    table.store(state)
    return state


# --- what is awaited ------------------------------------------------------------------------


def to_act(state):
    """The seats whose decision is awaited now (for deadlines, bots, fallbacks)."""
    if state.phase == "select":
        return [seat for seat, card in enumerate(state.selections) if not card]
    if state.prompt is not None:
        return [state.prompt[0]]
    return []


def is_over(state):
    return state.phase == "over"


def result(state):
    """Scores of the finished rounds (RULES 2.5, "Scores"); winners once the game is over."""
    winners = []
    if state.phase == "over":
        best = min(state.totals)
        winners = [seat for seat, total in enumerate(state.totals) if total == best]
    return {
        "rounds": [list(scores) for scores in state.round_scores],
        "totals": list(state.totals),
        "winners": winners,
    }


def open_rows(state):
    """Rows that are neither stopped nor capped: the rows Insérer and Glisser may use."""
    return [i for i in range(len(state.rows)) if not state.stops[i] and not state.caps[i]]


def glisser_moves(state):
    """Every Glisser move `(from row, index, to row, position)`, in that order (RULES 2.5).

    Any card of an unstopped, uncapped row may go to any position (0 … len, counted
    before it arrives) of another such row.
    """
    rows = state.rows
    usable = open_rows(state)
    return [
        (source, index, target, position)
        for source in usable
        for index in range(len(rows[source]))
        for target in usable
        if target != source
        for position in range(len(rows[target]) + 1)
    ]


def insert_positions(row):
    """Where Insérer may put its card in `row`: before any of its cards, never after the
    last; an empty row takes it at 0 (RULES 2.5)."""
    return range(max(len(row), 1))


def too_low_rows(state):
    """The rows a too-low card may choose: every unstopped row (RULES 2.3)."""
    return [i for i, stopped in enumerate(state.stops) if not stopped]


def stop_rows(state):
    """The rows a Stop may go on: every row without one (RULES 2.5)."""
    return [i for i, stopped in enumerate(state.stops) if not stopped]


def legal(state, seat):
    """Every decision `seat` may make now; empty when nothing is awaited from it.

    During selection that includes a seat that already selected (it may change until the
    last seat has selected, RULES 1.3). For Négatif = Positif the extras are a choice
    among subsets of the pile, too many to list: `legal` offers, for each card that may
    be removed, the choice without extras and the one with the greedy extras (costliest
    cards of the pile first, each as long as the budget allows); `apply` accepts any
    extras within the budget (RULES 2.5).
    """
    if type(seat) is not int or not 0 <= seat < state.players:
        return []
    phase = state.phase
    if phase == "select":
        hand = state.hands[seat]
        attachable = [None] + sorted(set(state.specials[seat]) - {NEGATIF})
        return [
            {"type": "select", "card": card, "special": special}
            for card in hand
            for special in attachable
        ]
    if state.prompt is None or state.prompt[0] != seat:
        return []
    kind = state.prompt[1]
    if kind == "remplacer":
        return [{"type": "remplacer", "card": card} for card in (None, *state.hands[seat])]
    if kind == "row":
        return [{"type": "row", "row": row} for row in too_low_rows(state)]
    if kind == "inserer":
        return [
            {"type": "inserer", "row": row, "position": position}
            for row in open_rows(state)
            for position in insert_positions(state.rows[row])
        ]
    if kind == "glisser":
        return [
            {"type": "glisser", "from": [source, index], "to": [target, position]}
            for source, index, target, position in glisser_moves(state)
        ]
    if kind == "stop":
        return [{"type": "stop", "row": row} for row in stop_rows(state)]
    if kind == "negatif_positif":
        # Every field DECISIONS declares, as a client must send it (games.protocol): the
        # pass too, with null extras, as the page's "Not now" button sends it (RULES 2.4).
        decisions = [dict(PASS_NEGATIF)]
        for card in state.prompt[2]:
            decisions.append({"type": "negatif_positif", "card": card, "extras": []})
            extras = greedy_extras(state.piles[seat], card)
            if extras:
                decisions.append({"type": "negatif_positif", "card": card, "extras": extras})
        return decisions
    # exchange
    return [
        {"type": "exchange", "special": special}
        for special in (None, *sorted(set(state.specials[seat])))
    ]


def greedy_extras(pile, card):
    """The costliest other cards of `pile` whose heads fit within `card`'s heads, taken
    greedily (most heads first, then the highest card): one legal set of extras."""
    budget = HEADS[card]
    extras = []
    for other in sorted((c for c in pile if c != card), key=lambda c: (-HEADS[c], -c)):
        if HEADS[other] <= budget:
            extras.append(other)
            budget -= HEADS[other]
    return sorted(extras)


def fallback(state, seat):
    """The decision RULES §2.6 takes for a seat that timed out or left the table.

    Selection: the lowest card, no special. Remplacer: keep the card. Stop: the row
    without a Stop holding the most heads, lowest index on a tie. Insérer: the lowest
    row it may use, position 0. Glisser: the first legal move in (source row, index,
    target row, position) order. Too-low row: the unstopped row with the fewest heads
    (a capped row's cards count), lowest index on a tie (§1.8). Reactions: nothing.
    """
    if seat not in to_act(state):
        raise IllegalDecision(f"nothing is expected from seat {seat} now")
    if state.phase == "select":
        return {"type": "select", "card": state.hands[seat][0], "special": None}
    kind = state.prompt[1]
    rows = state.rows
    if kind == "remplacer":
        return {"type": "remplacer", "card": None}
    if kind == "stop":
        best = max(stop_rows(state), key=lambda row: (row_heads(rows[row]), -row))
        return {"type": "stop", "row": best}
    if kind == "inserer":
        return {"type": "inserer", "row": open_rows(state)[0], "position": 0}
    if kind == "glisser":
        source, index, target, position = glisser_moves(state)[0]
        return {"type": "glisser", "from": [source, index], "to": [target, position]}
    if kind == "row":
        best = min(too_low_rows(state), key=lambda row: (row_heads(rows[row]), row))
        return {"type": "row", "row": best}
    if kind == "negatif_positif":
        return dict(PASS_NEGATIF)
    return {"type": "exchange", "special": None}


# --- applying a decision --------------------------------------------------------------------


def apply(state, seat, decision):
    """Apply `seat`'s decision; returns `(new_state, events)` and never changes `state`.

    Raises IllegalDecision with the reason when the rules do not allow it now.
    """
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalDecision(f"seat {seat!r} is not at this table")
    if type(decision) is not dict:
        raise IllegalDecision("a decision is a mapping with a 'type'")
    kind = decision.get("type")
    if kind == "select":
        return _select(state, seat, decision)
    if kind not in PHASES:
        raise IllegalDecision(
            f"unknown decision type {kind!r} (select, {', '.join(PHASES)})",
        )
    if state.prompt is None or state.prompt[0] != seat:
        raise IllegalDecision(f"nothing is expected from seat {seat} now")
    expected = state.prompt[1]
    if kind != expected:
        raise IllegalDecision(f"a {expected!r} decision is awaited, not {kind!r}")
    value = _checked(state, seat, kind, decision)
    new = state.copy()
    new.version = state.version + 1
    new.answers = state.answers + ((seat, kind, value),)
    events = []
    _resume(new, events)
    return new, events


def _select(state, seat, decision):
    if state.phase != "select":
        raise IllegalDecision(f"nothing is expected from seat {seat} now", "not_your_turn")
    card = decision.get("card")
    if type(card) is not int:
        raise IllegalDecision(f"a card is a whole number, not {card!r}")
    if card not in state.hands[seat]:
        raise IllegalDecision(f"card {card} is not in your hand", "not_in_hand", card)
    special = decision.get("special")
    if special is not None:
        if special not in KINDS:
            raise IllegalDecision(f"{special!r} is not a special card ({', '.join(KINDS)})")
        if special == NEGATIF:
            # RULES 2.2: Négatif = Positif is never attached, it is a reaction (2.4).
            raise IllegalDecision("Négatif = Positif is played after a take, never attached")
        if special not in state.specials[seat]:
            raise IllegalDecision(f"you hold no {special} special")
    # RULES 1.3: a seat may select again, replacing its choice, until all have chosen.
    selections = list(state.selections)
    attached = list(state.attached)
    selections[seat] = card
    attached[seat] = special
    new = state.copy()
    new.version = state.version + 1
    new.selections = tuple(selections)
    new.attached = tuple(attached)
    events = [{"type": "selected", "seat": seat}]
    if 0 in selections:
        return new, events
    # The last selection: cards and specials are revealed together (RULES 2.2).
    new.base = tuple(getattr(state, name) for name in TABLE_FIELDS)
    new.answers = ()
    new.emitted = 0
    _resume(new, events)
    return new, events


def _resume(new, events):
    """Run the turn's resolution from the reveal with `new.answers`; store where it stops."""
    table = _Table(new, new.base)
    produced = []
    try:
        table.play_turn(produced)
        prompt = None
    except _Pause as pause:
        prompt = pause.prompt
    events.extend(produced[new.emitted :])
    table.store(new)
    if prompt is not None:
        new.prompt = prompt
        new.phase = PHASES[prompt[1]]
        new.emitted = len(produced)


def _is_int(value):
    return type(value) is int


def _pair(value):
    if isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_int, value)):
        return tuple(value)
    return None


def _checked(state, seat, kind, decision):
    """The value of a resolution decision, in the record's terms, once checked legal."""
    rows = state.rows
    if kind == "remplacer":
        card = decision.get("card")
        if card is not None and (not _is_int(card) or card not in state.hands[seat]):
            raise IllegalDecision(f"card {card!r} is not in your hand", "not_in_hand", card)
        return card
    if kind in ("row", "stop"):
        row = decision.get("row")
        allowed = too_low_rows(state) if kind == "row" else stop_rows(state)
        if not _is_int(row) or row not in allowed:
            what = "a too-low card may take" if kind == "row" else "a Stop may go on"
            raise IllegalDecision(f"row {row!r} is not one {what} (rows {allowed})")
        return row
    if kind == "inserer":
        row, position = decision.get("row"), decision.get("position")
        if not _is_int(row) or row not in open_rows(state):
            raise IllegalDecision(f"row {row!r} cannot take Insérer (rows {open_rows(state)})")
        if not _is_int(position) or position not in insert_positions(rows[row]):
            raise IllegalDecision(
                f"position {position!r} is not before one of row {row}'s cards "
                f"(0 to {len(insert_positions(rows[row])) - 1})"
            )
        return (row, position)
    if kind == "glisser":
        source, target = _pair(decision.get("from")), _pair(decision.get("to"))
        if source is None or target is None:
            raise IllegalDecision("Glisser needs 'from': [row, index] and 'to': [row, position]")
        move = source + target
        if move not in glisser_moves(state):
            raise IllegalDecision(f"moving the card at {list(source)} to {list(target)} is illegal")
        return move
    if kind == "negatif_positif":
        card = decision.get("card")
        if card is None:
            return None
        if not _is_int(card) or card not in state.prompt[2]:
            raise IllegalDecision(
                f"card {card!r} is not one of the cards just taken {list(state.prompt[2])}"
            )
        extras = decision.get("extras", [])
        if not isinstance(extras, list | tuple) or not all(map(_is_int, extras)):
            raise IllegalDecision("extras must be a list of cards")
        pile = state.piles[seat]
        if len(set(extras)) != len(extras) or card in extras:
            raise IllegalDecision("extras name each card once, and not the card chosen")
        for extra in extras:
            if extra not in pile:
                raise IllegalDecision(f"card {extra} is not in your penalty pile")
        spent = sum(HEADS[extra] for extra in extras)
        if spent > HEADS[card]:
            raise IllegalDecision(
                f"the extras hold {spent} heads, more than card {card}'s {HEADS[card]}"
            )
        return (card, tuple(sorted(extras)))
    # exchange
    special = decision.get("special")
    if special is not None and special not in state.specials[seat]:
        raise IllegalDecision(f"you hold no {special!r} special")
    return special


# --- the table while a turn resolves --------------------------------------------------------


class _Table:
    """A mutable working copy of the table (lists), for one run of a turn's resolution."""

    def __init__(self, state, fields):
        rows, stops, caps, hands, specials, draw, discard, box, piles, reshuffles = fields
        self.state = state
        self.players = state.players
        self.round = state.round
        self.live = state.options["live_scores"]
        self.rows = [list(row) for row in rows]
        self.stops = list(stops)
        self.caps = list(caps)
        self.hands = [list(hand) for hand in hands]
        self.specials = [list(hand) for hand in specials]
        self.draw = list(draw)
        self.discard = list(discard)
        self.box = list(box)
        self.piles = [list(pile) for pile in piles]
        self.reshuffles = list(reshuffles)
        self.selections = state.selections
        self.attached = state.attached
        self.answers = state.answers
        self.asked = 0
        self.cards = []
        self.pending = []
        self.riding = []
        self.turns = list(state.turns)
        self.ended_turn = False
        self.phase = state.phase
        self.round_scores = state.round_scores
        self.totals = state.totals
        self.history = state.history
        self.start_rows = state.start_rows
        self.start_hands = state.start_hands

    def store(self, new):
        """Write the table back into the fresh state `new`, as tuples."""
        new.rows = tuple(tuple(row) for row in self.rows)
        new.stops = tuple(self.stops)
        new.caps = tuple(self.caps)
        new.hands = tuple(tuple(hand) for hand in self.hands)
        new.specials = tuple(tuple(sorted(hand)) for hand in self.specials)
        new.draw = tuple(self.draw)
        new.discard = tuple(self.discard)
        new.box = tuple(self.box)
        new.piles = tuple(tuple(pile) for pile in self.piles)
        new.reshuffles = tuple(self.reshuffles)
        new.cards = tuple(self.cards)
        new.pending = tuple(self.pending)
        new.riding = tuple(self.riding)
        new.turns = tuple(self.turns)
        new.round = self.round
        new.phase = self.phase
        new.round_scores = self.round_scores
        new.totals = self.totals
        new.history = self.history
        new.start_rows = self.start_rows
        new.start_hands = self.start_hands
        if self.ended_turn:
            players = self.players
            new.selections = (0,) * players
            new.attached = (None,) * players
            new.cards = new.pending = new.riding = new.answers = ()
            new.prompt = None
            new.emitted = 0
            new.base = None

    # --- asking ----------------------------------------------------------------------------

    def ask(self, seat, kind, events, taken=()):
        """The decision `seat` made at this point, or a pause until it is made."""
        events.append({"type": "asking", "seat": seat, "kind": kind})
        if self.asked < len(self.answers):
            answer = self.answers[self.asked]
            self.asked += 1
            # apply checked it against this very table when it was given.
            return answer[2]
        self.phase = PHASES[kind]
        raise _Pause((seat, kind, tuple(taken)))

    # --- specials ----------------------------------------------------------------------------

    def return_special(self, seat, events):
        """RULES 2.2: a special that cannot apply goes back to its owner's hand, unused."""
        special = self.riding[seat]
        self.riding[seat] = None
        self.specials[seat].append(special)
        self.specials[seat].sort()
        events.append({"type": "special_returned", "seat": seat, "special": special})

    def use_special(self, seat):
        """A used special goes to the discard pile (RULES 2.1, 2.5)."""
        self.discard.append(self.riding[seat])
        self.riding[seat] = None

    def reshuffle(self, events, seat=None):
        """RULES 2.5: the discard pile, shuffled, becomes the new draw pile."""
        state = self.state
        number = len(self.reshuffles)
        given = state.given
        if given is not None and self.round <= len(given[2]):
            plan = given[2][self.round - 1]
            if number >= len(plan):
                raise GivenError(
                    "the draw pile is empty here, so the discard pile is shuffled into a new "
                    f"one, but the record's reshuffles for this round give only {len(plan)}",
                    round=self.round,
                    seat=seat,
                )
            order = list(plan[number])
            if sorted(order) != sorted(self.discard):
                raise GivenError(
                    f"reshuffle {number + 1} of this round is not the discard pile "
                    f"{sorted(self.discard)}",
                    round=self.round,
                    seat=seat,
                )
        else:
            key = _key(state.seed, self.round, f"reshuffle/{number}")
            order = shuffled(key, self.discard, len(self.discard))
        self.reshuffles.append(tuple(order))
        self.draw = list(order)
        self.discard = []
        events.append({"type": "reshuffled", "size": len(order)})

    def draw_special(self, seat, events):
        """One special from the draw pile, reshuffling an empty one first (RULES 2.5).
        False when both piles are empty: the draw is lost."""
        if not self.draw:
            if not self.discard:
                return False
            self.reshuffle(events, seat)
        self.specials[seat].append(self.draw.pop(0))
        return True

    # --- a round ---------------------------------------------------------------------------

    def deal_round(self, events):
        """RULES 2.1/2.5: 12 number cards each from all 104, 4 rows, 3 specials each."""
        state = self.state
        players = self.players
        given = state.given
        if given is not None and self.round <= len(given[1]):
            rows, hands = given[1][self.round - 1]
            self.rows = [list(row) for row in rows]
            self.hands = [sorted(hand) for hand in hands]
        else:
            key = _key(state.seed, self.round, "deal")
            dealt = shuffled(key, NUMBERS, HAND_SIZE * players + ROW_COUNT)
            starts = range(0, HAND_SIZE * players, HAND_SIZE)
            self.hands = [sorted(dealt[i : i + HAND_SIZE]) for i in starts]
            self.rows = [[card] for card in dealt[HAND_SIZE * players :]]
        self.stops = [False] * ROW_COUNT
        self.caps = [False] * ROW_COUNT
        self.box = []
        self.piles = [[] for _ in range(players)]
        self.turns = []
        self.reshuffles = []
        self.phase = "select"
        self.start_rows = tuple(tuple(row) for row in self.rows)
        self.start_hands = tuple(tuple(hand) for hand in self.hands)
        events.append({"type": "round_started", "round": self.round})
        # One special at a time in seat order from seat 0, three times round (RULES 2.5).
        counts = [0] * players
        for _ in range(SPECIALS_DEALT):
            for seat in range(players):
                if self.draw_special(seat, events):
                    counts[seat] += 1
        events.append({"type": "specials_dealt", "counts": counts})

    def end_round(self, events):
        # RULES 2.5: Stops and 7 qui surprend still on the table go to the discard pile.
        for index in range(len(self.rows)):
            if self.stops[index]:
                self.discard.append(STOP)
            if self.caps[index]:
                self.discard.append(SEPT)
        self.stops = [False] * len(self.rows)
        self.caps = [False] * len(self.rows)
        given = self.state.given
        if given is not None and self.round <= len(given[2]):
            surplus = len(given[2][self.round - 1]) - len(self.reshuffles)
            if surplus > 0:
                raise GivenError(
                    f"the record gives {len(given[2][self.round - 1])} reshuffles for this "
                    f"round, but the draw pile was made from the discard pile "
                    f"{len(self.reshuffles)} times",
                    round=self.round,
                )
        # RULES 2.5, "Scores": the heads of the round's pile after removals.
        scores = tuple(row_heads(pile) for pile in self.piles)
        self.round_scores = self.round_scores + (scores,)
        self.totals = tuple(map(int.__add__, self.totals, scores))
        self.history = self.history + (
            (self.start_rows, self.start_hands, tuple(self.reshuffles), tuple(self.turns)),
        )
        events.append({"type": "round_over", "round": self.round, "heads": list(scores)})
        if self.round >= ROUNDS:
            self.phase = "over"
            best = min(self.totals)
            winners = [seat for seat, total in enumerate(self.totals) if total == best]
            events.append({"type": "game_over", "totals": list(self.totals), "winners": winners})
        else:
            self.round += 1
            self.deal_round(events)

    # --- a turn ----------------------------------------------------------------------------

    def play_turn(self, events):
        """RULES 2.5, "Order of a turn": reveal, every Remplacer, then the cards ascending."""
        players = self.players
        selections, attached = self.selections, self.attached
        for seat in range(players):
            self.hands[seat].remove(selections[seat])
            if attached[seat] is not None:
                self.specials[seat].remove(attached[seat])
        self.cards = list(selections)
        self.riding = list(attached)
        self.pending = sorted(selections)
        events.append({"type": "revealed", "cards": list(selections), "specials": list(attached)})
        remplacers = [seat for seat in range(players) if attached[seat] == REMPLACER]
        for seat in sorted(remplacers, key=selections.__getitem__):
            self.remplacer(seat, events)
        while self.pending:
            card = self.pending[0]
            self.resolve(self.cards.index(card), card, events)
        self.turns.append((tuple(selections), tuple(attached), tuple(self.answers)))
        self.ended_turn = True
        self.phase = "select"
        self.cards, self.pending, self.riding = [], [], []
        if len(self.turns) == HAND_SIZE:  # RULES 2.1: every number card in hand is played
            self.end_round(events)

    def remplacer(self, seat, events):
        """RULES 2.3/2.5: swap the revealed card for another of the hand, or keep it."""
        hand = self.hands[seat]
        if not hand:  # cannot apply: no other number card
            self.return_special(seat, events)
            return
        card = self.ask(seat, "remplacer", events)
        old = self.cards[seat]
        if card is not None:
            hand.remove(card)
            hand.append(old)
            hand.sort()
            self.cards[seat] = card
            self.pending = sorted(self.cards)
        # Used up either way: only "cannot apply" returns a special (RULES 2.5).
        self.use_special(seat)
        events.append({"type": "replaced", "seat": seat, "card": old, "by": card})

    def settle(self):
        """The resolving card has reached a row or a pile."""
        self.pending.pop(0)

    def resolve(self, seat, card, events):
        """One card and its special, on the table as the lower cards left it (RULES 2.5)."""
        special = self.riding[seat]
        if special == CINQUIEME:
            if len(self.rows) > ROW_COUNT:  # cannot apply: 5 rows lie on the table
                self.return_special(seat, events)
            else:
                # RULES 2.3/2.5: the card starts a 5th row (index 4) instead of being placed.
                self.use_special(seat)
                self.rows.append([card])
                self.stops.append(False)
                self.caps.append(False)
                self.settle()
                events.append(
                    {"type": "fifth_row", "seat": seat, "card": card, "row": len(self.rows) - 1}
                )
                return
        elif special == INSERER:
            if not open_rows(self):  # cannot apply: no unstopped, uncapped row
                self.return_special(seat, events)
            else:
                self.inserer(seat, card, events)
                return
        elif special == GLISSER:
            if not glisser_moves(self):  # cannot apply: no card can move
                self.return_special(seat, events)
            elif self.glisser(seat, card, events):
                return  # a 5-row take took the card itself
        self.place(seat, card, events)
        if self.riding[seat] == STOP:
            # RULES 2.5: counted after the card's placement, its take and the reactions.
            if sum(self.stops) >= STOP_LIMIT:
                self.return_special(seat, events)
            else:
                row = self.ask(seat, "stop", events)
                self.riding[seat] = None
                self.stops[row] = True
                events.append({"type": "stopped", "seat": seat, "row": row})

    def inserer(self, seat, card, events):
        row, position = self.ask(seat, "inserer", events)
        self.use_special(seat)
        self.rows[row].insert(position, card)
        self.settle()
        events.append(
            {"type": "inserted", "seat": seat, "card": card, "row": row, "position": position}
        )
        if len(self.rows[row]) > ROW_LIMIT:
            self.take_sixth(seat, row, None, events)

    def glisser(self, seat, card, events):
        """RULES 2.5: move a card, take if it made 6; True when that take took `card`."""
        source, index, target, position = self.ask(seat, "glisser", events)
        self.use_special(seat)
        moved = self.rows[source].pop(index)
        self.rows[target].insert(position, moved)
        events.append(
            {
                "type": "slid",
                "seat": seat,
                "card": moved,
                "from": [source, index],
                "to": [target, position],
            }
        )
        if len(self.rows[target]) > ROW_LIMIT:
            return self.take_sixth(seat, target, card, events)
        return False

    def take_sixth(self, seat, row, card, events):
        """A row holds 6 number cards after Insérer or Glisser (RULES 2.5): the first 5 are
        taken and the last starts the row; with 5 rows the whole row is taken, with
        `card` (the Glisser's own card, not placed), and the row disappears."""
        cards = self.rows[row]
        if len(self.rows) > ROW_COUNT:
            taken = cards + ([card] if card is not None else [])
            self.remove_row(row)
            if card is not None:
                self.settle()
            self.take(seat, row, taken, True, True, events)
            return True
        self.rows[row] = cards[ROW_LIMIT:]
        self.take(seat, row, cards[:ROW_LIMIT], True, False, events)
        return False

    def place(self, seat, card, events):
        """RULES 1.4 as 2.3 and 2.5 extend it: stopped rows ignored, empty rows end in 0,
        a capped row taken whole, 7 qui surprend laid on the card."""
        stopped = [index for index, stop in enumerate(self.stops) if stop]
        target = target_row_any(self.rows, card, stopped)
        sept = self.riding[seat] == SEPT
        if target < 0:
            if sept:  # cannot apply: its card is too low
                self.return_special(seat, events)
            events.append({"type": "choosing", "seat": seat, "card": card})
            row = self.ask(seat, "row", events)
            self.take_row(seat, row, card, events)
            return
        if self.caps[target]:
            if sept:  # cannot apply: its card's row is capped
                self.return_special(seat, events)
            self.take_row(seat, target, card, events)
            return
        if sept:
            # RULES 2.5: appended (the 6th of a full row, taking nothing), the special on it.
            self.riding[seat] = None
            self.rows[target].append(card)
            self.caps[target] = True
            self.settle()
            events.append({"type": "capped", "seat": seat, "card": card, "row": target})
            return
        if len(self.rows[target]) == ROW_LIMIT:
            self.take_row(seat, target, card, events, sixth=True)
            return
        self.rows[target].append(card)
        self.settle()
        events.append({"type": "placed", "seat": seat, "card": card, "row": target})

    def take_row(self, seat, row, card, events, sixth=False):
        """`card`'s player takes row `row` whole and `card` starts it again; with 5 rows
        the player also takes `card` and the row disappears (RULES 2.5)."""
        taken = self.rows[row]
        if self.caps[row]:  # the 7 qui surprend lying on it goes to the discard pile
            self.caps[row] = False
            self.discard.append(SEPT)
        # RULES 2.5: the Stops go when the row holds 6 number cards at that moment.
        six = len(taken) + (1 if sixth else 0) == ROW_LIMIT + 1
        self.settle()
        if len(self.rows) > ROW_COUNT:
            self.remove_row(row)
            self.take(seat, row, taken + [card], six, True, events)
        else:
            self.rows[row] = [card]
            self.take(seat, row, taken, six, False, events, placed=card)

    def remove_row(self, row):
        del self.rows[row]
        del self.stops[row]
        del self.caps[row]

    def take(self, seat, row, taken, six, removed, events, placed=None):
        """Cards go into `seat`'s pile; then the Stops' clearing and the reactions."""
        self.piles[seat].extend(taken)
        events.append(
            {
                "type": "took",
                "seat": seat,
                "row": row,
                "cards": list(taken),
                # RULES 1.5: with live scores off, heads stay unannounced until round end.
                "heads": row_heads(taken) if self.live else None,
                "row_removed": removed,
            }
        )
        if six and any(self.stops):
            cleared = [index for index, stop in enumerate(self.stops) if stop]
            for index in cleared:
                self.stops[index] = False
                self.discard.append(STOP)
            events.append({"type": "stops_cleared", "rows": cleared})
        if placed is not None:
            events.append({"type": "placed", "seat": seat, "card": placed, "row": row})
        self.reactions(seat, taken, events)

    def reactions(self, seat, taken, events):
        """RULES 2.4/2.5: Négatif = Positif, then an exchange, each asked only of a player
        who can make it."""
        specials = self.specials[seat]
        if NEGATIF in specials:
            choice = self.ask(seat, "negatif_positif", events, taken)
            if choice is not None:
                card, extras = choice
                pile = self.piles[seat]
                for removed in (card, *extras):
                    pile.remove(removed)
                    self.box.append(removed)
                specials.remove(NEGATIF)
                self.discard.append(NEGATIF)
                events.append(
                    {"type": "removed", "seat": seat, "card": card, "extras": list(extras)}
                )
        if specials and (self.draw or self.discard):
            given = self.ask(seat, "exchange", events)
            if given is not None:
                if not self.draw:
                    self.reshuffle(events, seat)
                specials.remove(given)
                self.discard.append(given)
                specials.append(self.draw.pop(0))
                specials.sort()
                events.append({"type": "exchanged", "seat": seat, "special": given})
