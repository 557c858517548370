"""`six_expert`: determinized Monte Carlo over the unseen cards (RULES §3).

For each decision with more than one playable card:
1. deal the cards the seat has not seen (neither in its hand nor on the table) to the
   other seats, as many as each holds (the view shows the counts), never giving a seat a
   card its passes this hand prove it does not hold ("worlds"); once the opponents have
   played this hand, POOL times as many worlds are dealt and drawn from by how likely
   each makes their plays had they played as six_heuristic (they are often heuristics,
   and a heuristic's card says much about the hand it came from);
2. in each world, play each candidate card and then the rest of the hand, every seat
   playing as six_heuristic would (`heuristic_bit`, on bit masks);
3. play the candidate with the best mean points for this hand (RULES 3.3: +5 and the
   others' cards for the winner, minus the cards left otherwise), where a hand that ends
   the game counts as the most the hand could give when the seat wins the game and the
   least when another does (`hand_value`): what matters then is the game, not the cards.
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

from .cards import (
    SIX_INDEX,
    first_of_game,
    open_cards,
    passes_exclude,
    ranks,
    table_of,
    unseen,
)
from .random_bot import legal_decisions

# Simulated turns per decision (the pool of worlds weighed comes on top): p95 under 50 ms
# of CPU.
TURNS_BUDGET = 7_000
MIN_WORLDS = 8
MAX_WORLDS = 400
DEAL_ATTEMPTS = 20
# The play-out policy: with probability GREEDY a seat plays six_heuristic's card (ties:
# the lowest bit), otherwise a random playable card.
GREEDY = 1.0
# The opponents are taken to play as six_heuristic: worlds are dealt POOL times over,
# weighted by how likely their plays this hand were in each, and `worlds` of them drawn
# by weight. A play the heuristic would not have made keeps NOT_HEURISTIC of the weight.
POOL = 4
NOT_HEURISTIC = 0.05


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

    The cards some seat may not hold go first, most constrained first, each to a seat
    drawn in proportion to the room it has left; the others then fill the room left at
    random. A dead end starts again, and after DEAL_ATTEMPTS the passes are ignored.
    """
    seats = list(room)
    ruled_out = 0
    for seat in seats:
        ruled_out |= excluded[seat]
    free = [bit for bit in cards if not ruled_out >> bit & 1]
    bound = [bit for bit in cards if ruled_out >> bit & 1]
    for _ in range(DEAL_ATTEMPTS):
        left = dict(room)
        hands = dict.fromkeys(seats, 0)
        if bound:
            rng.shuffle(bound)
            bound.sort(key=lambda bit: sum(not excluded[seat] >> bit & 1 for seat in seats))
        for bit in bound:
            allowed = [seat for seat in seats if left[seat] and not excluded[seat] >> bit & 1]
            if not allowed:
                break
            seat = rng.choices(allowed, weights=[left[seat] for seat in allowed])[0]
            hands[seat] |= 1 << bit
            left[seat] -= 1
        else:
            shuffled = free[:]
            rng.shuffle(shuffled)
            start = 0
            for seat in seats:
                hands[seat] |= sum(1 << bit for bit in shuffled[start : start + left[seat]])
                start += left[seat]
            return hands
    return deal_world(rng, cards, room, dict.fromkeys(seats, 0))


def heuristic_best(choices, hand, deck) -> list[int]:
    """The cards six_heuristic scores best among `choices` (bits) from `hand` (a mask), in
    the order of `choices`: twice a card's run of own cards plus its own cards behind it,
    less the others' behind it (`heuristic.card_score`). Written out in one loop: the
    play-outs call it on every turn with a choice."""
    best, best_score = [], None
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
            best, best_score = [bit], score
        elif score == best_score:
            best.append(bit)
    return best


def heuristic_bit(choices, hand, deck) -> int:
    """The card six_heuristic would play among `choices` (bits, ascending) from `hand`:
    the lowest of those it scores best."""
    return heuristic_best(choices, hand, deck)[0]


def heuristic_chance(played, choices, hand, deck) -> float:
    """How likely six_heuristic is to play the bit `played` among `choices` (a mask) from
    `hand` (a mask): 1 / the ties when it scores best, else 0."""
    best = heuristic_best(bits_of(choices), hand, deck)
    return 1 / len(best) if played in best else 0.0


def plays_this_hand(view, deck, me) -> dict[int, list[tuple[int, int]]]:
    """Per opponent, its cards played this hand, latest first, each with the mask of the
    cards that were playable then (a pass changes nothing)."""
    playable = deck.mask(open_cards([None] * len(SUITS), deck.ranks, first_of_game(view)))
    plays = {}
    for seat, card in view["turns"]:
        if card is None:
            continue
        bit = deck.bit[card]
        if seat != me:
            plays.setdefault(seat, []).append((bit, playable))
        playable = (playable ^ (1 << bit)) | deck.opens[bit]
    for seat_plays in plays.values():
        seat_plays.reverse()
    return plays


def likelihood(dealt, plays, deck) -> float:
    """How likely the opponents, playing as six_heuristic, were to play what they played
    this hand had they been dealt `dealt` (seat -> hand mask now); each play that the
    heuristic would not have made counts NOT_HEURISTIC, not 0, for opponents who are not
    six_heuristic."""
    weight = 1.0
    for seat, seat_plays in plays.items():
        hand = dealt[seat]
        for bit, playable in seat_plays:
            hand |= 1 << bit  # the hand as it was then
            choices = hand & playable
            if choices & (choices - 1):
                chance = heuristic_chance(bit, choices, hand, deck)
                weight *= NOT_HEURISTIC + (1 - NOT_HEURISTIC) * chance
    return weight


def play_out(hands, playable, seat, deck, rng):
    """Play the hand to its end from `seat`'s turn; the seat that wins it.

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
                return seat
            playable = (playable ^ (1 << bit)) | opens[bit]
        seat = (seat + 1) % players


def points(hands, winner, me):
    if winner == me:
        return WINNER_BONUS + sum(hand.bit_count() for hand in hands)
    return -hands[me].bit_count()


def hand_value(view):
    """`value(hands, winner)`: what the end of this hand is worth to the seat, in points.

    Its points (RULES 3.3), except when the hand ends the game: then winning the game is
    worth the most the hand could give, and losing it the least, whatever the cards left
    (RULES 3.5: the game ends after the hand whose winner reaches the target; a game of a
    fixed number of hands after its last, the highest total winning).
    """
    me, totals, options = view["seat"], view["totals"], view["options"]
    best, worst = WINNER_BONUS + sum(view["counts"]), -len(view["hand"])
    if options.get("end") == "hands":
        if view["round"] < options["hands"]:
            return lambda hands, winner: points(hands, winner, me)

        def last_hand(hands, winner):
            final = [total - hand.bit_count() for total, hand in zip(totals, hands, strict=True)]
            final[winner] = totals[winner] + points(hands, winner, winner)
            return best if final[me] == max(final) else worst

        return last_hand
    target = options["target"]

    def value(hands, winner):
        gained = points(hands, winner, winner)
        if totals[winner] + gained >= target:
            return best if winner == me else worst
        return gained if winner == me else -hands[me].bit_count()

    return value


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
        value = hand_value(view)
        plays = plays_this_hand(view, deck, me)
        dealt_worlds = self.draw_worlds(rng, worlds, cards, room, excluded, plays, deck)
        totals = [0] * len(candidates)
        following = (me + 1) % players
        for dealt, copies in dealt_worlds:
            hands = [mine if seat == me else dealt[seat] for seat in range(players)]
            for index, card in enumerate(candidates):
                bit = deck.bit[card]
                world = hands[:]
                world[me] ^= 1 << bit
                if not world[me]:
                    totals[index] += copies * value(world, me)
                    continue
                after = (playable ^ (1 << bit)) | deck.opens[bit]
                winner = play_out(world, after, following, deck, rng)
                totals[index] += copies * value(world, winner)
        return [total / worlds for total in totals]

    def draw_worlds(self, rng, worlds, cards, room, excluded, plays, deck):
        """`worlds` deals of the unseen cards as (deal, copies): drawn by their likelihood
        among POOL times as many when the opponents have played this hand."""
        if not plays or POOL <= 1:  # `plays` names only opponents who played this hand
            return [(deal_world(rng, cards, room, excluded), 1) for _ in range(worlds)]
        pool = [deal_world(rng, cards, room, excluded) for _ in range(POOL * worlds)]
        weights = [likelihood(dealt, plays, deck) for dealt in pool]
        total = sum(weights)
        # Systematic resampling: one random offset, `worlds` evenly spaced pointers.
        step = total / worlds
        pointer = rng.random() * step
        drawn, reached, taken = [], 0.0, 0
        for dealt, weight in zip(pool, weights, strict=True):
            reached += weight
            copies = 0
            while pointer < reached and taken + copies < worlds:
                copies += 1
                pointer += step
            if copies:
                drawn.append((dealt, copies))
                taken += copies
        if taken < worlds:  # rounding at the very end
            drawn[-1] = (drawn[-1][0], drawn[-1][1] + worlds - taken)
        return drawn
