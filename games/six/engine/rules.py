"""Six as pure functions: a state and a decision in, a new state and events out.

Everything RULES §3 says about dealing, opening, playing, passing, scoring and ending is
encoded here. Every public function leaves the state it is given untouched.

The only decision is playing a card, `{"type": "select", "card": "5-oros"}`, by the seat
whose turn it is. A seat with no playable card passes automatically (RULES 3.5): the
pass is an event, not a decision, made by the same call that made it that seat's turn.
"""

from games.engine.errors import IllegalDecision

from .cards import HIGHER, LOWER, OPENING_CARD, RANKS, SIX, SUITS, parts, sort_key
from .dealing import Stream, balanced_deal, deal, first_dealt, hand_key
from .options import normalize_options
from .state import State

KIND = "six"
# The one decision, playing a card by its short name such as "6-oros" (cards.py); the
# type of each field is what games.protocol checks in a message.
DECISIONS = {"select": {"card": str}}
WINNER_BONUS = 5  # RULES 3.3
_EMPTY_TABLE = ((),) * len(SUITS)


# --- starting a game and a hand --------------------------------------------------------


def new_game(*, players, options, seed):
    """A game ready for its first decision: hand 1 dealt, the holder of the 6 of oros to play."""
    options = normalize_options(options, players)
    if type(seed) is not int:
        raise TypeError(f"seed must be an integer, not {seed!r}")
    state = State(
        players=players,
        options=options,
        seed=seed,
        version=0,
        round=1,
        phase="select",
        hands=(),
        table=_EMPTY_TABLE,
        opener=0,
        to_move=None,
        turns=(),
        start_hands=(),
        round_scores=(),
        totals=(0,) * players,
        history=(),
    )
    _open_hand(state, [])
    return state


def _sorted_hands(hands):
    return tuple(tuple(sorted(hand, key=sort_key)) for hand in hands)


def _open_hand(s, events):
    """Deal hand `s.round` into the fresh state `s` and play its leading passes."""
    options = s.options
    stream = Stream(hand_key(s.seed, s.round))
    if options["balanced"]:
        # RULES 3.4, 3.5: every hand of a balanced game is dealt balanced.
        hands = balanced_deal(stream, RANKS[options["deck"]])
    else:
        # RULES 3.1, 3.5: all cards, one at a time, from seat h mod n for hand h (from 0).
        hands = deal(stream, options["deck"], s.players, first_dealt(s.round, s.players))
    s.hands = s.start_hands = _sorted_hands(hands)
    if s.round > 1:
        # RULES 3.5: the seat after the one that had the first turn of the previous hand.
        s.opener = (s.opener + 1) % s.players
    events.append({"type": "round_started", "round": s.round})
    _begin_play(s, events)


def _begin_play(s, events):
    """The first turn of the hand dealt in `s`: its opener's, or the first seat that can
    play after the opener's automatic pass (RULES 3.3, 3.5)."""
    s.table = _EMPTY_TABLE
    s.turns = ()
    if s.round == 1:
        # RULES 3.2, 3.5: the holder of the 6 of oros has the first turn of hand 1.
        s.opener = next(seat for seat, hand in enumerate(s.hands) if OPENING_CARD in hand)
    _pass_until_playable(s, s.opener, events)


def _pass_until_playable(s, seat, events):
    """Give the turn to `seat`, or pass for it and the seats after it until one can play.

    RULES 3.5: a seat with no playable card passes, automatically, and the pass is still
    that seat's turn. Some seat can always play while every hand holds cards: a suit not
    complete on the table has its next card (or its 6) in some hand.
    """
    players = s.players
    for _ in range(players):
        if _has_playable(s, seat):
            s.to_move = seat
            return
        s.turns = s.turns + ((seat, None),)
        events.append({"type": "passed", "seat": seat})
        seat = (seat + 1) % players
    raise AssertionError("no seat can play, yet the hand is not over")


# --- what may be played ----------------------------------------------------------------


def _is_playable(s, card):
    """RULES 3.2: a card next to an end of its suit's sequence, or a 6 starting one; the
    first card of the game is the 6 of oros (RULES 3.5)."""
    if s.round == 1 and not s.turns:
        return card == OPENING_CARD
    suit, rank = parts(card)
    sequence = s.table[suit]
    if not sequence:
        return rank == SIX
    deck = s.options["deck"]
    return rank == LOWER[deck].get(sequence[0]) or rank == HIGHER[deck].get(sequence[1])


def _has_playable(s, seat):
    return any(_is_playable(s, card) for card in s.hands[seat])


def playable(state, seat):
    """The cards of `seat`'s hand that could be played now, in deck order (whoever's turn)."""
    if state.phase == "over":
        return []
    return [card for card in state.hands[seat] if _is_playable(state, card)]


def to_act(state):
    """The seat whose decision is awaited now: one at a time, or none once it is over."""
    if state.phase == "over":
        return []
    return [state.to_move]


def legal(state, seat):
    """Every decision `seat` may make now; empty when it is not that seat's turn.

    RULES 3.2: a seat that can play must play one card; with several, it chooses. The
    seat to move always has one (otherwise it would have passed already). In deck order:
    suits oros, copas, espadas, bastos, lower rank first.
    """
    if state.phase == "over" or seat != state.to_move:
        return []
    return [{"type": "select", "card": card} for card in playable(state, seat)]


def fallback(state, seat):
    """The decision RULES §3.5 takes for a seat that timed out or left the table: its first
    playable card, suits in the order oros, copas, espadas, bastos, lower rank first.
    Raises IllegalDecision when nothing is awaited from it."""
    options = legal(state, seat)
    if not options:
        raise IllegalDecision(f"nothing is expected from seat {seat} now")
    return min(options, key=lambda decision: sort_key(decision["card"]))


def is_over(state):
    return state.phase == "over"


def result(state):
    """Points so far, the RULES §4.3 replay output; `winners` stays empty until the end.

    `rounds` holds the points each seat gained or lost in each finished hand; `winners`
    the seats with the highest total (RULES 3.3: ranking by points, highest first).
    """
    winners = []
    if state.phase == "over":
        best = max(state.totals)
        winners = [seat for seat, total in enumerate(state.totals) if total == best]
    return {
        "rounds": [list(points) for points in state.round_scores],
        "totals": list(state.totals),
        "winners": winners,
    }


# --- applying a decision -----------------------------------------------------------------


def apply(state, seat, decision):
    """Apply `seat`'s decision; returns `(new_state, events)` and never changes `state`.

    Raises IllegalDecision with the reason when the rules do not allow it now.
    """
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalDecision(f"seat {seat!r} is not at this table")
    if type(decision) is not dict:
        raise IllegalDecision("a decision is a mapping with a 'type'")
    kind = decision.get("type")
    if kind != "select":
        raise IllegalDecision(f"unknown decision type {kind!r} (Six has only select)")
    if state.phase == "over":
        raise IllegalDecision("the game is over", "game_over")
    if seat != state.to_move:
        raise IllegalDecision(
            f"it is not your turn: seat {state.to_move} plays now", "not_your_turn"
        )
    card = decision.get("card")
    if type(card) is not str:
        raise IllegalDecision(f"a card is a name such as '6-oros', not {card!r}")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalDecision(f"card {card} is not in your hand", "not_in_hand", card)
    if not _is_playable(state, card):
        if state.round == 1 and not state.turns:
            raise IllegalDecision(
                f"the first card of the game is {OPENING_CARD} (RULES 3.5)", "not_playable", card
            )
        raise IllegalDecision(
            f"card {card} neither continues a sequence on the table nor starts one (a 6)",
            "not_playable",
            card,
        )

    new = state.copy()
    new.version = state.version + 1
    suit, rank = parts(card)
    table = list(state.table)
    sequence = table[suit]
    table[suit] = (min(sequence[0], rank), max(sequence[1], rank)) if sequence else (rank, rank)
    new.table = tuple(table)
    hands = list(state.hands)
    hands[seat] = tuple(held for held in hand if held != card)
    new.hands = tuple(hands)
    new.turns = state.turns + ((seat, card),)
    events = [{"type": "played", "seat": seat, "card": card}]
    if not hands[seat]:
        _end_hand(new, seat, events)  # RULES 3.2: the hand ends as soon as a hand is empty
    else:
        _pass_until_playable(new, (seat + 1) % state.players, events)  # RULES 3.2: next seat
    return new, events


def _end_hand(s, winner, events):
    """RULES 3.3: the winner gains 5 plus every card left in the other hands; every other
    seat loses one point per card left in its own hand. Then the end, or a new hand."""
    left = [len(hand) for hand in s.hands]
    points = [-count for count in left]
    points[winner] = WINNER_BONUS + sum(left)
    s.round_scores = s.round_scores + (tuple(points),)
    s.totals = tuple(total + gained for total, gained in zip(s.totals, points, strict=True))
    s.history = s.history + ((s.start_hands, s.turns),)
    events.append(
        {
            "type": "round_over",
            "round": s.round,
            "winner": winner,
            "points": points,
            "left": left,
            # The generic score sheet stores non-negative "heads", fewer is better: the cards
            # left in each hand, from which the points follow (docs/engines.md, Six).
            "heads": list(left),
        }
    )
    if _game_ends(s, winner):
        s.phase = "over"
        s.to_move = None
        outcome = result(s)
        events.append(
            {"type": "game_over", "totals": outcome["totals"], "winners": outcome["winners"]}
        )
    else:
        s.round += 1
        _open_hand(s, events)


def _game_ends(s, winner):
    """Whether the hand just scored is the game's last."""
    options = s.options
    # A game begun before the `end` option was known plays to its target.
    if options.get("end") == "hands":
        # RULES §5: a game of a fixed number of hands (a duplicate round's) ends after it.
        return s.round >= options["hands"]
    # RULES 3.5: the game ends after the hand whose winner's total reaches the target.
    return s.totals[winner] >= options["target"]


# --- used by records.replay to play a recorded deal instead of a seeded one ---------------


def with_deal(state, hands):
    """A copy of `state` at the start of a hand, with `hands` dealt instead of its own.

    The replay of a record (RULES §4.3) plays the recorded deal; it checks the deal itself
    before calling this. Returns `(new_state, events)`: the hand's leading passes.
    """
    if state.phase != "select" or any(card is not None for _, card in state.turns):
        raise ValueError("a deal can only be replaced before the hand's first card")
    new = state.copy()
    new.hands = new.start_hands = _sorted_hands(hands)
    events = []
    _begin_play(new, events)
    return new, events
