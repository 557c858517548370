"""Game records of Six (RULES §4.3): exporting one from a state, and re-playing one strictly.

    {"format": "sixclub-record/1", "game": "six",
     "options": {"deck": 40, "target": 30, "balanced": false},
     (or "options": {"deck": 40, "end": "hands", "hands": 4, "balanced": false}: RULES §5)
     "players": ["alice", "bob", "carol", "dave"],
     "rounds": [{"hands": [["6-oros", ...], ...], "turns": [[2, "6-oros"], [3, null], ...]}]}

`replay` trusts nothing in the record. It plays the recorded deals and turns through the
same `apply` the server uses, so a record is legal exactly when the game it tells could
have been played on the site. The first fault found, in the order the game would have
met it, is raised as a RecordError naming hand (`round`) and turn (1-based) and seat
(0-based).
"""

from games.engine.errors import IllegalDecision
from games.engine.recordreader import FORMAT, RecordReader, json_type

from .cards import deck, is_card
from .dealing import balance_fault, first_dealt, hand_sizes
from .options import MAX_PLAYERS, MIN_PLAYERS, normalize_options
from .rules import KIND, apply, new_game, playable, result, with_deal

_REPLAY_SEED = 0  # the seeded deal is replaced by the recorded one, hand by hand


def record(state, players):
    """The RULES §4.3 record of `state`'s game, with `players` as the seat names.

    A game in progress exports its finished hands only: the hand being played holds
    secrets (the hands) that a record would give away.
    """
    if len(players) != state.players:
        raise ValueError(f"{len(players)} names given for {state.players} seats")
    options = state.options
    if options.get("end") == "hands":
        # RULES §5: a game of a fixed number of hands says so; a game to a target keeps
        # the options RULES §4.3 shows.
        ending = {"end": "hands", "hands": options["hands"]}
    else:
        ending = {"target": options["target"]}
    return {
        "format": FORMAT,
        "game": KIND,
        "options": {"deck": options["deck"], **ending, "balanced": options["balanced"]},
        "players": list(players),
        "rounds": [
            {
                "hands": [list(hand) for hand in hands],
                "turns": [[seat, card] for seat, card in turns],
            }
            for hands, turns in state.history
        ],
    }


def replay(record, *, allow_unfinished=False):
    """Re-play a record and return its result (`{"rounds", "totals", "winners"}`).

    Raises RecordError at the first illegal or malformed thing. A record must tell a
    finished game unless `allow_unfinished` is set; then it may stop after any finished
    hand, and `winners` is empty while the game is not over.
    """
    return _Replay(record).run(allow_unfinished)


class _Replay(RecordReader):
    # --- the header ----------------------------------------------------------------------

    def run(self, allow_unfinished):
        record = self.record
        self.options = self.read_header(
            kind=KIND,
            players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
            normalize_options=normalize_options,
        )
        names = self.names
        rounds = record["rounds"]
        if not isinstance(rounds, list):
            self.fail(f"rounds must be a list, not {json_type(rounds)}")

        state = new_game(players=len(names), options=self.options, seed=_REPLAY_SEED)
        for number, entry in enumerate(rounds, start=1):
            self.round = number
            self.turn = None
            if state.phase == "over":
                self.fail(self._why_over(state))
            state = self.play_hand(state, entry)
        if state.phase != "over" and not allow_unfinished:
            self.round = len(rounds) + 1
            self.turn = None
            if not rounds:
                self.fail("the record has no hands: the game is not over")
            if self.options["end"] == "hands":
                self.fail(
                    f"the record ends after hand {len(rounds)} of {self.options['hands']}: "
                    "the game is not over"
                )
            self.fail(
                f"the record ends after hand {len(rounds)} but no hand's winner has reached "
                f"the target {self.options['target']} (totals {list(state.totals)}): "
                "the game is not over"
            )
        return result(state)

    def _why_over(self, state):
        if self.options["end"] == "hands":
            return (
                f"the game is played over {self.options['hands']} hands, so it ended before "
                "this one"
            )
        winner = state.history[-1][1][-1][0]
        return (
            f"the game ended after hand {self.round - 1}: its winner, seat {winner}, reached "
            f"{state.totals[winner]} points (target {self.options['target']}), so no further "
            "hand may be played"
        )

    # --- a hand --------------------------------------------------------------------------

    def play_hand(self, state, entry):
        if not isinstance(entry, dict):
            self.fail(f"a hand is a JSON object, not {json_type(entry)}")
        for key in ("hands", "turns"):
            if key not in entry:
                self.fail(f"the hand has no {key!r}")
        hands = self.check_deal(entry["hands"], state.players, state.round)
        state, _ = with_deal(state, hands)
        turns = entry["turns"]
        if not isinstance(turns, list):
            self.fail(f"turns must be a list, not {json_type(turns)}")
        hand_no = state.round
        for number, turn in enumerate(turns, start=1):
            self.turn = number
            seat, card = self.check_turn(turn, state.players)
            if state.phase == "over" or state.round != hand_no:
                winner = state.history[-1][1][-1][0]
                self.fail(
                    f"seat {winner} played its last card at turn {number - 1}, so the hand is "
                    "over; it cannot go on",
                    seat,
                )
            state = self.play_turn(state, number, seat, card)
        if state.phase != "over" and state.round == hand_no:
            self.turn = len(turns) + 1
            if len(state.turns) > len(turns):
                expected = state.turns[len(turns)][0]  # a pass the record leaves out
            else:
                expected = state.to_move
            self.fail(
                f"the hand stops after {len(turns)} turns, but it goes on until a seat is out "
                f"of cards (cards left: {[len(hand) for hand in state.hands]})",
                expected,
            )
        return state

    def check_deal(self, hands, players, hand_no):
        """RULES 3.1, 3.5: the whole deck, each card once, extras with the seats dealt first
        (and RULES 3.4 in a balanced game)."""
        size = self.options["deck"]
        if not isinstance(hands, list) or len(hands) != players:
            self.fail(f"hands must be a list of {players} hands, one per seat")
        holder = {}
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list):
                self.fail(f"a hand is a list of cards, not {json_type(hand)}", seat)
            for card in hand:
                if not is_card(card, size):
                    self.fail(f"{card!r} is not a card of the {size}-card deck", seat)
                if card in holder:
                    self.fail(f"card {card} is dealt twice (also to seat {holder[card]})", seat)
                holder[card] = seat
        first = first_dealt(hand_no, players)
        sizes = hand_sizes(size, players, first)
        missing = [card for card in deck(size) if card not in holder]
        for seat, hand in enumerate(hands):
            if missing and len(hand) < sizes[seat]:
                self.fail(
                    f"card {', '.join(missing)} is missing from the deal: this seat holds "
                    f"{len(hand)} cards instead of {sizes[seat]}",
                    seat,
                )
        for seat, hand in enumerate(hands):
            if len(hand) != sizes[seat]:
                self.fail(
                    f"this seat is dealt {len(hand)} cards, but dealing {size} cards one at a "
                    f"time from seat {first} gives it {sizes[seat]} (RULES 3.5)",
                    seat,
                )
        if self.options["balanced"]:
            fault = balance_fault(hands, size)
            if fault is not None:
                seat, reason = fault
                self.fail(f"the deal is not balanced: {reason}", seat)
        return hands

    def check_turn(self, turn, players):
        if not isinstance(turn, list) or len(turn) != 2:
            self.fail(f"a turn is [seat, card] or [seat, null], not {turn!r}")
        seat, card = turn
        if type(seat) is not int or not 0 <= seat < players:
            self.fail(f"{seat!r} is not a seat of this game (0 to {players - 1})")
        if card is not None and not is_card(card, self.options["deck"]):
            self.fail(f"{card!r} is not a card of the {self.options['deck']}-card deck", seat)
        return seat, card

    def play_turn(self, state, number, seat, card):
        passed = len(state.turns) >= number  # the engine passed for the seat automatically
        expected = state.turns[number - 1][0] if passed else state.to_move
        if seat != expected:
            self.fail(f"turn out of order: this turn is seat {expected}'s", seat)
        if card is not None and card not in state.hands[seat]:
            self.fail(f"card {card} is not in this seat's hand", seat)
        if passed:
            if card is not None:
                self.fail(f"card {card} cannot be played now: this seat has no playable card", seat)
            return state
        if card is None:
            cards = ", ".join(playable(state, seat))
            self.fail(f"a pass, but this seat can play ({cards}): it must play", seat)
        try:
            state, _ = apply(state, seat, {"type": "select", "card": card})
        except IllegalDecision as error:
            self.fail(f"card {card} cannot be played now: {error}", seat)
        return state
