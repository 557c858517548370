"""Game records of 6 qui surprend (RULES §4.2): exporting one, and re-playing one strictly.

`replay` trusts nothing in the record. It checks the header and every round's deal, then
plays the recorded specials order, deals, reshuffles and decisions through the same
`apply` the server uses, so a record is legal exactly when the game it tells could have
been played on the site. The first fault found is raised as a RecordError naming round
and turn (1-based) and seat (0-based) where they apply. The deals of both rounds are
checked before the first turn is played (the engine needs them all to start).
"""

from collections import Counter

from games.engine.errors import IllegalDecision
from games.engine.recordreader import FORMAT, RecordReader, json_type

from .cards import (
    HAND_SIZE,
    HIGHEST,
    KINDS,
    LOWEST,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEGATIF,
    ROUNDS,
    ROW_COUNT,
    SPECIALS,
)
from .options import normalize_options
from .rules import KIND, GivenError, apply, result, start

_REPLAY_SEED = 0  # every shuffle is the record's own


# --- decisions between the engine's form and the record's ---------------------------------


def record_value(kind, value):
    """A decision's value as RULES §4.2 writes it, from the state's form."""
    if kind == "inserer":
        return {"row": value[0], "position": value[1]}
    if kind == "glisser":
        return {"from": [value[0], value[1]], "to": [value[2], value[3]]}
    if kind == "negatif_positif" and value is not None:
        return {"card": value[0], "extras": list(value[1])}
    return value


def decision_entry(entry):
    """`(seat, kind, value)` as the record's `[seat, kind, value]`."""
    seat, kind, value = entry
    return [seat, kind, record_value(kind, value)]


def decision_of(kind, value):
    """The `apply` decision a record's `[seat, kind, value]` stands for."""
    if kind == "remplacer":
        return {"type": kind, "card": value}
    if kind in ("row", "stop"):
        return {"type": kind, "row": value}
    if kind == "exchange":
        return {"type": kind, "special": value}
    if kind == "negatif_positif" and value is None:
        return {"type": kind, "card": None}
    if not isinstance(value, dict):
        raise IllegalDecision(f"a {kind} decision's value is an object, not {value!r}")
    if kind == "inserer":
        return {"type": kind, "row": value.get("row"), "position": value.get("position")}
    if kind == "glisser":
        return {"type": kind, "from": value.get("from"), "to": value.get("to")}
    return {"type": kind, "card": value.get("card"), "extras": value.get("extras", [])}


# --- writing -------------------------------------------------------------------------------


def record(state, players):
    """The RULES §4.2 record of `state`'s game, with `players` as the seat names.

    A game in progress exports its finished rounds only: the round being played holds
    secrets (hands, specials in hand, selections) that a record would give away.
    """
    if len(players) != state.players:
        raise ValueError(f"{len(players)} names given for {state.players} seats")
    rounds = []
    for rows, hands, reshuffles, turns in state.history:
        rounds.append(
            {
                "rows": [list(row) for row in rows],
                "hands": [list(hand) for hand in hands],
                "reshuffles": [list(order) for order in reshuffles],
                "turns": [
                    {
                        "cards": list(cards),
                        "specials": list(specials),
                        "decisions": [decision_entry(entry) for entry in decisions],
                    }
                    for cards, specials, decisions in turns
                ],
            }
        )
    return {
        "format": FORMAT,
        "game": KIND,
        "options": {"live_scores": state.options["live_scores"]},
        "players": list(players),
        "specials": list(state.specials_order),
        "rounds": rounds,
    }


# --- re-playing ----------------------------------------------------------------------------


def replay(record, *, allow_unfinished=False):
    """Re-play a record and return its result (`{"rounds", "totals", "winners"}`).

    Raises RecordError at the first illegal or malformed thing. A record must tell a
    finished game (two rounds) unless `allow_unfinished` is set; then it may stop after
    any finished round, and `winners` is empty while the game is not over.
    """
    return _Replay(record).run(allow_unfinished)


def _is_int(value):
    return type(value) is int  # JSON true/false arrive as bools, which are ints in Python


class _Replay(RecordReader):
    def given_failed(self, error):
        if error.round != self.round:  # a refill at a round's start, before its first turn
            self.round, self.turn = error.round, None
        self.fail(str(error), error.seat)

    # --- the header and the deals ----------------------------------------------------------

    def run(self, allow_unfinished):
        record = self.record
        options = self.read_header(
            kind=KIND,
            players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
            normalize_options=normalize_options,
            extra=("specials",),
        )
        names = self.names
        players = len(names)
        specials = record["specials"]
        if (
            not isinstance(specials, list)
            or not all(isinstance(name, str) for name in specials)
            or Counter(specials) != Counter(SPECIALS)
        ):
            self.fail(
                "specials must list the 28 specials (4 of each of "
                f"{', '.join(KINDS)}) in the order of the first shuffle"
            )
        rounds = record["rounds"]
        if not isinstance(rounds, list):
            self.fail(f"rounds must be a list, not {json_type(rounds)}")
        if len(rounds) > ROUNDS:
            self.round = ROUNDS + 1
            self.fail(f"the game ends after round {ROUNDS}; no further round may be played")
        deals, reshuffles = [], []
        for number, entry in enumerate(rounds, start=1):
            self.round = number
            deal, orders = self.check_round(entry, players)
            deals.append(deal)
            reshuffles.append(orders)

        self.round = 1
        try:
            state = start(
                players=players,
                options=options,
                seed=_REPLAY_SEED,
                given=(tuple(specials), tuple(deals), tuple(reshuffles)),
            )
        except GivenError as error:
            self.given_failed(error)
        for number, entry in enumerate(rounds, start=1):
            self.round = number
            self.turn = None
            state = self.play_round(state, entry["turns"])
        if state.phase != "over" and not allow_unfinished:
            self.round = len(rounds) + 1
            self.turn = None
            self.fail(
                f"the record ends after {len(rounds)} of {ROUNDS} rounds: the game is not over"
            )
        return result(state)

    def check_round(self, entry, players):
        if not isinstance(entry, dict):
            self.fail(f"a round is a JSON object, not {json_type(entry)}")
        for key in ("rows", "hands", "reshuffles", "turns"):
            if key not in entry:
                self.fail(f"the round has no {key!r}")
        rows = self.check_rows(entry["rows"])
        hands = self.check_hands(entry["hands"], players, set(rows))
        orders = entry["reshuffles"]
        if not isinstance(orders, list) or not all(
            isinstance(order, list) and all(name in KINDS for name in order) for order in orders
        ):
            self.fail("reshuffles must be a list of draw piles, each a list of special names")
        if not isinstance(entry["turns"], list):
            self.fail(f"turns must be a list, not {json_type(entry['turns'])}")
        deal = (tuple((card,) for card in rows), tuple(tuple(hand) for hand in hands))
        return deal, tuple(tuple(order) for order in orders)

    def check_rows(self, rows):
        if not isinstance(rows, list) or len(rows) != ROW_COUNT:
            self.fail(f"rows must be a list of {ROW_COUNT} rows of one card each")
        starting = []
        for index, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != 1:
                self.fail(f"row {index} must start with exactly one card, as [card]")
            card = row[0]
            self.check_card(card, f"row {index}")
            if card in starting:
                self.fail(f"card {card} starts two rows")
            starting.append(card)
        return starting

    def check_hands(self, hands, players, taken):
        if not isinstance(hands, list) or len(hands) != players:
            self.fail(f"hands must be a list of {players} hands, one per seat")
        where = dict.fromkeys(taken, "a row")
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != HAND_SIZE:
                self.fail(f"a hand must be a list of {HAND_SIZE} cards", seat)
            for card in hand:
                self.check_card(card, "the hand", seat)
                if where.get(card) == f"the hand of seat {seat}":
                    self.fail(f"card {card} appears twice in this hand", seat)
                if card in where:
                    self.fail(f"card {card} of this hand is also in {where[card]}", seat)
                where[card] = f"the hand of seat {seat}"
        return hands

    def check_card(self, card, place, seat=None):
        if not _is_int(card):
            self.fail(f"{place}: {card!r} is not a card number", seat)
        if not LOWEST <= card <= HIGHEST:
            self.fail(f"{place}: card {card} is not a number card ({LOWEST} to {HIGHEST})", seat)

    # --- the turns -------------------------------------------------------------------------

    def play_round(self, state, turns):
        for number, turn in enumerate(turns, start=1):
            self.turn = number
            if number > HAND_SIZE:
                self.fail(
                    f"every hand is empty after {HAND_SIZE} turns; this turn cannot be played"
                )
            state = self.play_turn(state, turn)
        if len(turns) < HAND_SIZE:
            self.turn = len(turns) + 1
            self.fail(
                f"the round stops after {len(turns)} turns, but a round goes on until every "
                f"hand is empty ({HAND_SIZE} turns)"
            )
        return state

    def play_turn(self, state, turn):
        players = state.players
        if not isinstance(turn, dict):
            self.fail(f"a turn is a JSON object, not {json_type(turn)}")
        for key in ("cards", "specials", "decisions"):
            if key not in turn:
                self.fail(f"a turn needs 'cards', 'specials' and 'decisions' (no {key!r})")
        cards, specials, decisions = turn["cards"], turn["specials"], turn["decisions"]
        if not isinstance(cards, list) or len(cards) != players:
            self.fail(f"cards must list one card per seat ({players})")
        if not isinstance(specials, list) or len(specials) != players:
            self.fail(f"specials must list one special or null per seat ({players})")
        if not isinstance(decisions, list):
            self.fail(f"decisions must be a list, not {json_type(decisions)}")
        for seat, card in enumerate(cards):
            if not _is_int(card):
                self.fail(f"the card played is {card!r}, which is not a card number", seat)
            if card not in state.hands[seat]:
                self.fail(f"card {card} is not in this seat's hand", seat)
        for seat, special in enumerate(specials):
            if special is None:
                continue
            if special == NEGATIF:
                self.fail("Négatif = Positif is attached, but it is only played after a take", seat)
            if special not in KINDS:
                self.fail(f"{special!r} is not a special", seat)
            if special not in state.specials[seat]:
                self.fail(f"the special {special} is attached, but this seat holds none", seat)
        try:
            for seat in range(players):
                decision = {"type": "select", "card": cards[seat], "special": specials[seat]}
                state, _ = apply(state, seat, decision)
            done = 0
            while state.prompt is not None:
                seat, kind, _taken = state.prompt
                if done >= len(decisions):
                    self.fail(
                        f"a decision is missing: the rules ask seat {seat} for {kind!r}", seat
                    )
                entry = decisions[done]
                done += 1
                if (
                    not isinstance(entry, list)
                    or len(entry) != 3
                    or not _is_int(entry[0])
                    or not isinstance(entry[1], str)
                ):
                    self.fail(f"decision {done} must be [seat, kind, value], not {entry!r}", seat)
                if entry[0] != seat or entry[1] != kind:
                    self.fail(
                        f"decision {done} is [{entry[0]}, {entry[1]!r}], but here the rules "
                        f"ask seat {seat} for {kind!r}",
                        seat,
                    )
                try:
                    state, _ = apply(state, seat, decision_of(kind, entry[2]))
                except GivenError:
                    raise
                except IllegalDecision as error:
                    self.fail(f"decision {done} ({kind} {entry[2]!r}) is illegal: {error}", seat)
        except GivenError as error:
            self.given_failed(error)
        if done < len(decisions):
            self.fail(
                f"{len(decisions) - done} decision(s) too many: the turn is over after "
                f"decision {done}, {decisions[done]!r} is not asked for",
                decisions[done][0] if _is_seat(decisions[done], players) else None,
            )
        return state


def _is_seat(entry, players):
    return isinstance(entry, list) and entry and _is_int(entry[0]) and 0 <= entry[0] < players
