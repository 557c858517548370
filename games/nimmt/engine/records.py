"""Game records (RULES §4): exporting one from a state, and re-playing one strictly.

`replay` trusts nothing in the record. It plays the recorded deal and decisions through
the same `apply` the server uses, so a record is legal exactly when the game it tells
could have been played on the site. The first fault found, in the order the game would
have met it, is raised as a RecordError naming round and turn (1-based) and seat
(0-based). docs/records.md lists every check.
"""

from games.engine.errors import IllegalDecision
from games.engine.recordreader import FORMAT, RecordReader, json_type

from .cards import HAND_SIZE, ROW_COUNT, deck_size
from .options import MAX_PLAYERS, MIN_PLAYERS, normalize_options
from .rules import KIND, apply, new_game, result, with_deal

_REPLAY_SEED = 0  # the seeded deal is replaced by the recorded one, round by round


def record(state, players):
    """The RULES §4 record of `state`'s game, with `players` as the seat names.

    A game in progress exports its finished rounds only: the round being played holds
    secrets (hands, selections) that a record would give away.
    """
    if len(players) != state.players:
        raise ValueError(f"{len(players)} names given for {state.players} seats")
    options = state.options
    exported = {"card_limit": options["card_limit"], "deal": options["deal"], "end": options["end"]}
    exported[options["end"]] = options[options["end"]]
    rounds = []
    for rows, hands, picks, turns in state.history:
        entry = {"rows": [list(row) for row in rows], "hands": [list(hand) for hand in hands]}
        if picks is not None:
            entry["picks"] = list(picks)
        entry["turns"] = [
            {"cards": list(cards), "choices": {str(seat): row for seat, row in choices}}
            for cards, choices in turns
        ]
        rounds.append(entry)
    return {
        "format": FORMAT,
        "game": KIND,
        "options": exported,
        "players": list(players),
        "rounds": rounds,
    }


def replay(record, *, allow_unfinished=False):
    """Re-play a record and return its result (`{"rounds", "totals", "winners"}`).

    Raises RecordError at the first illegal or malformed thing. A record must tell a
    finished game unless `allow_unfinished` is set; then it may stop after any finished
    round, and `winners` is empty while the game is not over.
    """
    return _Replay(record).run(allow_unfinished)


def _is_int(value):
    return type(value) is int  # JSON true/false arrive as bools, which are ints in Python


class _Replay(RecordReader):
    # --- the header ----------------------------------------------------------------------

    def run(self, allow_unfinished):
        record = self.record
        self.options = self.read_header(
            kind=KIND,
            players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
            normalize_options=normalize_options,
        )
        players = len(self.names)
        rounds = record["rounds"]
        if not isinstance(rounds, list):
            self.fail(f"rounds must be a list, not {json_type(rounds)}")

        state = new_game(players=players, options=self.options, seed=_REPLAY_SEED)
        for number, entry in enumerate(rounds, start=1):
            self.round = number
            self.turn = None
            if state.phase == "over":
                self.fail(self._why_over(state))
            state = self.play_round(state, entry)
        if state.phase != "over" and not allow_unfinished:
            self.round = len(rounds) + 1
            self.turn = None
            self.fail(self._why_not_over(state, len(rounds)))
        return result(state)

    def _why_over(self, state):
        options = self.options
        if options["end"] == "rounds":
            return (
                f"the game is played over {options['rounds']} rounds, so it ended before this one"
            )
        worst = max(state.totals)
        seat = state.totals.index(worst)
        return (
            f"the game ended after round {self.round - 1}: seat {seat} reached {worst} heads "
            f"(threshold {options['threshold']}), so no further round may be played"
        )

    def _why_not_over(self, state, played):
        options = self.options
        if played == 0:
            return "the record has no rounds: the game is not over"
        if options["end"] == "rounds":
            return (
                f"the record ends after {played} of {options['rounds']} rounds: "
                "the game is not over"
            )
        return (
            f"the record ends after round {played} but nobody has reached the threshold "
            f"{options['threshold']} (highest total {max(state.totals)}): the game is not over"
        )

    # --- a round -------------------------------------------------------------------------

    def play_round(self, state, entry):
        players = state.players
        if not isinstance(entry, dict):
            self.fail(f"a round is a JSON object, not {json_type(entry)}")
        for key in ("rows", "hands", "turns"):
            if key not in entry:
                self.fail(f"the round has no {key!r}")
        draft = self.options["deal"] == "draft"
        size = deck_size(players, self.options["card_limit"])
        rows = self.check_rows(entry["rows"], size)
        hands = self.check_hands(entry["hands"], players, size, set(rows))
        picks = entry.get("picks")
        if draft:
            if picks is None:
                self.fail("a draft round needs its 'picks'")
            state = self.play_draft(state, picks, rows, hands)
        else:
            if picks not in (None, []):
                self.fail("'picks' belongs to draft games only; this game deals at random")
            state = with_deal(state, rows, hands)

        turns = entry["turns"]
        if not isinstance(turns, list):
            self.fail(f"turns must be a list, not {json_type(turns)}")
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

    def check_rows(self, rows, size):
        if not isinstance(rows, list) or len(rows) != ROW_COUNT:
            self.fail(f"rows must be a list of {ROW_COUNT} rows of one card each")
        starting = []
        for index, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != 1:
                self.fail(f"row {index} must start with exactly one card, as [card]")
            card = row[0]
            self.check_card(card, size, f"row {index}")
            if card in starting:
                self.fail(f"card {card} starts two rows")
            starting.append(card)
        return starting

    def check_hands(self, hands, players, size, taken):
        if not isinstance(hands, list) or len(hands) != players:
            self.fail(f"hands must be a list of {players} hands, one per seat")
        where = dict.fromkeys(taken, "a row")
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != HAND_SIZE:
                self.fail(f"a hand must be a list of {HAND_SIZE} cards", seat)
            for card in hand:
                self.check_card(card, size, "the hand", seat)
                if where.get(card) == f"the hand of seat {seat}":
                    self.fail(f"card {card} appears twice in this hand", seat)
                if card in where:
                    self.fail(f"card {card} of this hand is also in {where[card]}", seat)
                where[card] = f"the hand of seat {seat}"
        return hands

    def check_card(self, card, size, place, seat=None):
        if not _is_int(card):
            self.fail(f"{place}: {card!r} is not a card number", seat)
        if not 1 <= card <= size:
            self.fail(f"{place}: card {card} is outside the cards in play (1 to {size})", seat)

    def play_draft(self, state, picks, rows, hands):
        players = state.players
        if not isinstance(picks, list) or len(picks) != HAND_SIZE * players:
            self.fail(f"picks must list the {HAND_SIZE * players} cards picked, in order")
        size = deck_size(players, self.options["card_limit"])
        for number, card in enumerate(picks, start=1):
            seat = state.to_pick
            self.check_card(card, size, f"draft pick {number}", seat)
            try:
                state, _ = apply(state, seat, {"type": "pick", "card": card})
            except IllegalDecision:
                self.fail(f"draft pick {number}: card {card} was already picked", seat)
        for seat, hand in enumerate(hands):
            if sorted(hand) != list(state.hands[seat]):
                self.fail("the hand is not the cards this seat picked in the draft", seat)
        # With card_limit the unpicked cards are exactly four, so the rows must be those.
        unpicked = set(range(1, size + 1))
        unpicked.difference_update(picks)
        for card in rows:
            if card not in unpicked:
                self.fail(
                    f"row card {card} was picked in the draft; rows start with unpicked cards"
                )
        return with_deal(state, rows)

    # --- a turn --------------------------------------------------------------------------

    def play_turn(self, state, turn):
        players = state.players
        if not isinstance(turn, dict):
            self.fail(f"a turn is a JSON object, not {json_type(turn)}")
        if "cards" not in turn or "choices" not in turn:
            self.fail("a turn needs 'cards' and 'choices'")
        cards, choices = turn["cards"], turn["choices"]
        if not isinstance(cards, list) or len(cards) != players:
            self.fail(f"cards must list one card per seat ({players})")
        if not isinstance(choices, dict):
            self.fail(f"choices must map seats to rows, not {json_type(choices)}")
        wanted = {}
        for key, row in choices.items():
            seat = _seat_of(key, players)
            if seat is None:
                self.fail(f"choices key {key!r} is not a seat of this game (0 to {players - 1})")
            wanted[seat] = row

        for seat, card in enumerate(cards):
            if not _is_int(card):
                self.fail(f"the card played is {card!r}, which is not a card number", seat)
            if card not in state.hands[seat]:
                self.fail(f"card {card} is not in this seat's hand", seat)
        for seat, card in enumerate(cards):
            state, events = apply(state, seat, {"type": "select", "card": card})
        used = set()
        while True:
            self.check_unneeded_choices(events, wanted, used)
            if state.phase != "choose_row" or state.turn != self.turn:
                break
            card, seat = state.pending[0], state.chooser
            if seat not in wanted:
                self.fail(
                    f"card {card} is lower than the last card of every row "
                    f"({', '.join(str(row[-1]) for row in state.rows)}) and needs a row choice, "
                    "but none is given",
                    seat,
                )
            row = wanted[seat]
            if not _is_int(row) or not 0 <= row < ROW_COUNT:
                self.fail(f"row {row!r} does not exist (rows are 0 to {ROW_COUNT - 1})", seat)
            used.add(seat)
            state, events = apply(state, seat, {"type": "row", "row": row})
        return state

    def check_unneeded_choices(self, events, wanted, used):
        """RULES §4: `choices` holds the too-low cards' rows and nothing else."""
        for event in events:
            if event["type"] == "round_over":
                return
            if event["type"] == "placed" and event["seat"] in wanted and event["seat"] not in used:
                self.fail(
                    f"a row choice is given, but card {event['card']} is not too low "
                    f"(it goes to row {event['row']})",
                    event["seat"],
                )


def _seat_of(key, players):
    """The seat a `choices` key names: its decimal number as a string, e.g. "1"."""
    if not isinstance(key, str) or not key.isdigit() or str(int(key)) != key:
        return None
    seat = int(key)
    return seat if seat < players else None
