"""`six_expert`: determinized Monte Carlo over the unseen cards (RULES §3).

For each decision with more than one playable card:
1. deal the cards the seat has not seen (neither in its hand nor on the table) to the
   other seats, as many as each holds (the view shows the counts), never giving a seat a
   card its passes this hand prove it does not hold ("worlds");
2. in each world, play each candidate card and then the rest of the hand, every seat
   playing as six_heuristic would (`heuristic_bit`, on bit masks);
3. play the candidate with the best mean points for this hand (RULES 3.3: +5 and the
   others' cards for the winner, minus the cards left otherwise).
Every candidate is tried in the same worlds, so their comparison is not blurred by the
luck of the deal.

The budget is counted in simulated turns, not in seconds, so that the decision is a pure
function of (seed, view): the number of worlds is `turns_budget` divided by the work of
one world (candidates × cards still in hands), between `min_worlds` and `max_worlds`.

The play-outs work on bit masks: card `suit * len(ranks) + position of its rank`, a
hand or the set of cards playable now an int.
"""

import random

from games.bots.base import Bot, decision_seed
from games.six.engine.cards import SUITS
from games.six.engine.rules import WINNER_BONUS

from .cards import SIX_INDEX, open_cards, passes_exclude, ranks, table_of, unseen
from .random_bot import legal_decisions

TURNS_BUDGET = 10_000  # simulated turns per decision: p95 under 50 ms of CPU
MIN_WORLDS = 8
MAX_WORLDS = 400
DEAL_ATTEMPTS = 20
# The play-out policy: with probability GREEDY a seat plays six_heuristic's card (ties:
# the lowest bit), otherwise a random playable card.
GREEDY = 1.0


class Deck:
    """Bit positions of the cards of one deck, and what playing each one opens."""

    def __init__(self, deck_ranks):
        self.ranks = deck_ranks
        size = len(deck_ranks)
        self.bit = {}
        for suit_index, suit in enumerate(SUITS):
            for position, rank in enumerate(deck_ranks):
                self.bit[f"{rank}-{suit}"] = suit_index * size + position
        # opens[i]: the mask of the cards that become playable once card i is down.
        self.opens = []
        # behind[i]: the mask of the cards of its suit that wait for card i; below[i] and
        # above[i] the part of it below and above card i.
        self.behind = []
        self.below = []
        self.above = []
        for suit_index in range(len(SUITS)):
            base = suit_index * size
            for position in range(size):
                opens = below = above = 0
                if position <= SIX_INDEX and position > 0:
                    opens |= 1 << (base + position - 1)
                    below = ((1 << position) - 1) << base
                if position >= SIX_INDEX and position < size - 1:
                    opens |= 1 << (base + position + 1)
                    above = ((1 << (size - position - 1)) - 1) << (base + position + 1)
                self.opens.append(opens)
                self.behind.append(below | above)
                self.below.append(below)
                self.above.append(above)
        # waiting[i]: how many cards wait for card i.
        self.waiting = [behind.bit_count() for behind in self.behind]

    def mask(self, cards) -> int:
        result = 0
        for card in cards:
            result |= 1 << self.bit[card]
        return result


_DECKS: dict[int, Deck] = {}


def deck_for(view: dict) -> Deck:
    size = view["options"]["deck"]
    if size not in _DECKS:
        _DECKS[size] = Deck(ranks(view))
    return _DECKS[size]


def bits_of(mask: int) -> list[int]:
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits


def deal_world(rng, cards, room, excluded):
    """Deal `cards` (bit positions) to the seats of `room` (seat -> how many it holds),
    never a card to a seat whose `excluded` mask holds it. Returns seat -> hand mask.

    Most constrained cards first, each to a seat drawn in proportion to the room it has
    left; a dead end starts again, and after DEAL_ATTEMPTS the passes are ignored.
    """
    seats = list(room)
    if not any(excluded.values()):
        shuffled = cards[:]
        rng.shuffle(shuffled)
        hands, start = {}, 0
        for seat in seats:
            hands[seat] = sum(1 << bit for bit in shuffled[start : start + room[seat]])
            start += room[seat]
        return hands
    for _ in range(DEAL_ATTEMPTS):
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda bit: sum(not excluded[seat] >> bit & 1 for seat in seats))
        left = dict(room)
        hands = dict.fromkeys(seats, 0)
        for bit in order:
            allowed = [seat for seat in seats if left[seat] and not excluded[seat] >> bit & 1]
            if not allowed:
                break
            seat = rng.choices(allowed, weights=[left[seat] for seat in allowed])[0]
            hands[seat] |= 1 << bit
            left[seat] -= 1
        else:
            return hands
    return deal_world(rng, cards, room, dict.fromkeys(seats, 0))


def heuristic_bit(choices, hand, deck) -> int:
    """The card six_heuristic would play among `choices` (bits) from `hand` (a mask):
    twice its run of own cards plus its own cards behind it, less the others' behind it
    (`heuristic.card_score`); the lowest bit on a tie."""
    best, best_score = -1, None
    below, above, behind, waiting = deck.below, deck.above, deck.behind, deck.waiting
    for bit in choices:
        run = 0
        low = below[bit]
        if low:
            gaps = low & ~hand
            run = bit - gaps.bit_length() if gaps else low.bit_count()
        high = above[bit]
        if high:
            held = (hand & high) >> (bit + 1)
            run += (~held & (held + 1)).bit_length() - 1
        score = 2 * (run + (behind[bit] & hand).bit_count()) - waiting[bit]
        if best_score is None or score > best_score:
            best, best_score = bit, score
    return best


def play_out(hands, playable, seat, me, deck, rng):
    """Play the hand to its end from `seat`'s turn; `me`'s points (RULES 3.3).

    `hands` (a list of masks, changed in place) and `playable` (a mask) as they stand.
    Each seat plays as six_heuristic would, or at random with probability 1 - GREEDY.
    """
    players = len(hands)
    opens = deck.opens
    while True:
        can = hands[seat] & playable
        if can:
            if can & (can - 1):  # several cards: choose
                choices = bits_of(can)
                if rng.random() < GREEDY:
                    bit = heuristic_bit(choices, hands[seat], deck)
                else:
                    bit = choices[int(rng.random() * len(choices))]
            else:
                bit = can.bit_length() - 1
            hands[seat] ^= 1 << bit
            if not hands[seat]:
                return points(hands, seat, me)
            playable = (playable ^ (1 << bit)) | opens[bit]
        seat = (seat + 1) % players


def points(hands, winner, me):
    if winner == me:
        return WINNER_BONUS + sum(hand.bit_count() for hand in hands)
    return -hands[me].bit_count()


class SixExpertBot(Bot):
    name = "six_expert"

    def __init__(
        self,
        seed: int = 0,
        turns_budget: int = TURNS_BUDGET,
        min_worlds: int = MIN_WORLDS,
        max_worlds: int = MAX_WORLDS,
    ):
        super().__init__(seed)
        self.turns_budget = turns_budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.last_worlds = 0  # worlds simulated for the last decision (for benchmarks)

    def decide(self, view: dict) -> dict:
        choices = legal_decisions(view)
        self.last_worlds = 0
        if len(choices) == 1:
            return choices[0]
        return self.estimates(view)[0][0]

    def estimates(self, view: dict, also: dict | None = None) -> list[tuple[dict, float]]:
        """Every playable card with its mean points for this hand over the same worlds,
        best first (a single playable card is estimated too). Every legal decision is
        considered, so a legal `also` is always among them."""
        choices = legal_decisions(view)
        if not choices:
            return []
        rng = random.Random(decision_seed(self.seed, view))
        means = self.evaluate(view, [choice["card"] for choice in choices], rng)
        order = sorted(range(len(choices)), key=lambda index: (-means[index], index))
        return [(choices[index], means[index]) for index in order]

    def evaluate(self, view: dict, candidates: list[str], rng) -> list[float]:
        """Mean points for this hand of playing each candidate, over the same worlds."""
        deck = deck_for(view)
        me, players, counts = view["seat"], view["players"], view["counts"]
        mine = deck.mask(view["hand"])
        # After the candidate (the 6 of oros when it opens the game) every open end counts.
        playable = deck.mask(open_cards(table_of(view), deck.ranks))
        cards = [deck.bit[card] for card in unseen(view)]
        room = {seat: counts[seat] for seat in range(players) if seat != me}
        excluded = {seat: 0 for seat in room}
        for seat, names in passes_exclude(view).items():
            excluded[seat] = deck.mask(names)
        work = len(candidates) * max(1, sum(counts))
        worlds = max(self.min_worlds, min(self.max_worlds, self.turns_budget // work))
        self.last_worlds = worlds
        totals = [0] * len(candidates)
        following = (me + 1) % players
        for _ in range(worlds):
            dealt = deal_world(rng, cards, room, excluded)
            hands = [mine if seat == me else dealt[seat] for seat in range(players)]
            for index, card in enumerate(candidates):
                bit = deck.bit[card]
                world = hands[:]
                world[me] ^= 1 << bit
                if not world[me]:
                    totals[index] += points(world, me, me)
                    continue
                after = (playable ^ (1 << bit)) | deck.opens[bit]
                totals[index] += play_out(world, after, following, me, deck, rng)
        return [total / worlds for total in totals]
