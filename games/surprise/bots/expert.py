"""`surprise_expert`: determinized Monte Carlo over what the seat has not seen (RULES §2).

For a selection it deals, many times over, the unseen number cards into the opponents'
hands and the unseen specials into their hands and the draw pile, as many as the view
shows each holds (a "world"). In every world it plays each candidate — a card alone, or
with a special where the heuristic finds it useful, or with Stop — through the turn and
the rest of the round on `table.Table`, and keeps the candidate with the fewest heads on
average, plus the premium the heuristic puts on a special spent (the rollouts play no
specials after the first turn, so they do not see what a special kept is worth).
Every candidate meets the same worlds (common random numbers). Remplacer is valued
without more rollouts: in each world the seat would, once the cards are revealed, switch
to the card that costs least this turn, so its value is that card's rollout.

In the rollouts the opponents' first cards are drawn at random from their hands and
carry one of their specials a quarter of the time; afterwards every player plays, each
turn, the safest of the next few cards of its randomly ordered hand (the seat looks at
3, opponents at 2). A too-low card's row is chosen the same way: every unstopped row,
then the rest of the turn and of the round. The other prompts are the heuristic's.

The budget is a count of card placements, not a clock, so a decision depends on the
seed and the view only.
"""

import random
from collections import Counter

from games.bots.base import Bot, decision_seed
from games.surprise.engine.cards import NEGATIF, REMPLACER, SEPT, SPECIALS, STOP

from .heuristic import SurpriseHeuristicBot, premium, selection_options, unseen_cards
from .legal import awaited
from .table import ROW_LIMIT, Table

PLACEMENTS = 20_000  # card placements per decision: p95 under 150 ms
MIN_WORLDS = 8
MAX_WORLDS = 300
MAX_PLAIN = 8  # the cards the heuristic finds safest, played without a special
MAX_CANDIDATES = 12
OWN_LOOK = 3
OPPONENT_LOOK = 2
OPPONENT_SPECIAL = 0.25  # chance an opponent's first card carries one of its specials


def unseen_specials(view: dict) -> list[str]:
    """The specials in other hands and the draw pile during selection: all 28 but the
    own, the discarded and those lying on the table."""
    left = Counter(SPECIALS)
    left.subtract(view["specials"] or ())
    left.subtract(view["discard"])
    left[STOP] -= sum(view["stops"])
    left[SEPT] -= sum(view["caps"])
    return sorted(left.elements())


class World:
    """One deal of what the seat has not seen: each opponent's hand in a random order
    (the order it will play in) and the specials it holds."""

    def __init__(self, rng, me, players, turns, cards, specials, counts):
        cards = cards[:]
        rng.shuffle(cards)
        specials = specials[:]
        rng.shuffle(specials)
        self.hands = {}
        self.specials = {}
        for seat in range(players):
            if seat == me:
                continue
            self.hands[seat] = cards[:turns]
            del cards[:turns]
            self.specials[seat] = specials[: counts[seat]]
            del specials[: counts[seat]]
        self.first = {}
        for seat, held in self.specials.items():
            usable = [s for s in held if s not in (NEGATIF, REMPLACER)]
            if usable and rng.random() < OPPONENT_SPECIAL:
                self.first[seat] = rng.choice(usable)


def quick_cost(table: Table, card: int, escape: int) -> int:
    """Heads `card` takes for sure if played now (0 when it fits a short row); `escape`
    is what a too-low card costs (the cheapest row's heads and one for the escape)."""
    target = table.target(card)
    if target < 0:
        return escape
    if table.caps[target] or len(table.rows[target]) >= ROW_LIMIT:
        return table.heads[target]
    return 0


def safest(table: Table, order: list, look: int) -> int:
    """The card a rollout player plays: the safest of the next `look` of its `order`."""
    look = min(look, len(order))
    if look < 2:
        return order.pop(0)
    escape = table.heads[table.cheapest()] + 1
    costs = [quick_cost(table, order[i], escape) for i in range(look)]
    return order.pop(costs.index(min(costs)))


def play_rest(table: Table, orders: dict, me: int) -> int:
    """Play out the hands in `orders` (seat -> cards, changed in place) on `table`, each
    seat playing the safest of its next few cards; the heads `me` takes."""
    taken = 0
    while orders[me]:
        plays = [
            (safest(table, order, OWN_LOOK if seat == me else OPPONENT_LOOK), seat, None)
            for seat, order in orders.items()
        ]
        taken += table.play(plays).get(me, 0)
    return taken


class SurpriseExpertBot(Bot):
    name = "surprise_expert"

    def __init__(self, seed: int = 0, *, placements: int = PLACEMENTS):
        super().__init__(seed)
        self.placements = placements
        self.heuristic = SurpriseHeuristicBot(seed)
        self.last_worlds = 0  # worlds dealt for the last decision (for benchmarks)

    def decide(self, view: dict) -> dict:
        kind = awaited(view)
        self.last_worlds = 0
        if kind == "select" and len(view["hand"]) > 1:
            return self.select(view)
        if kind == "row" and sum(not stop for stop in view["stops"]) > 1:
            return self.choose_row(view)
        return self.heuristic.decide(view)

    def worlds_for(self, candidates: int, view: dict) -> int:
        work = candidates * len(view["hand"]) * view["players"]
        return max(MIN_WORLDS, min(MAX_WORLDS, self.placements // max(work, 1)))

    def deal(self, view: dict, rng, worlds: int) -> list[World] | None:
        me, players, turns = view["seat"], view["players"], len(view["hand"])
        cards = unseen_cards(view)
        if len(cards) < turns * (players - 1):
            return None
        specials = unseen_specials(view)
        counts = view["special_counts"]
        return [World(rng, me, players, turns, cards, specials, counts) for _ in range(worlds)]

    # --- selection -------------------------------------------------------------------------

    def candidates(self, view: dict) -> list[tuple[int, object]]:
        options = selection_options(view)
        plain = {card: cost for cost, card, special in options if special is None}
        useful = [
            (cost, card, special)
            for cost, card, special in options
            if special is not None and cost < plain[card]
        ]
        ranked = sorted(plain.items(), key=lambda item: item[1])
        chosen = [(card, None) for card, _ in ranked[:MAX_PLAIN]]
        useful.sort(key=lambda option: option[:2])
        chosen += [(card, special) for _, card, special in useful]
        held = view["specials"] or ()
        if STOP in held and sum(view["stops"]) < 2:
            chosen.append((ranked[0][0], STOP))
        return chosen[:MAX_CANDIDATES]

    def select(self, view: dict) -> dict:
        me = view["seat"]
        hand = sorted(view["hand"])
        candidates = self.candidates(view)
        rng = random.Random(decision_seed(self.seed, view))
        worlds = self.deal(view, rng, self.worlds_for(len(candidates), view))
        if worlds is None:
            return self.heuristic.decide(view)
        self.last_worlds = len(worlds)
        start = Table.of_view(view)
        totals = [0.0] * len(candidates)
        firsts = [[0] * len(worlds) for _ in candidates]
        rests = [[0] * len(worlds) for _ in candidates]
        for w, world in enumerate(worlds):
            mine = hand[:]
            rng.shuffle(mine)
            theirs = {seat: cards[:] for seat, cards in world.hands.items()}
            first = [
                (safest(start, order, OPPONENT_LOOK), seat, world.first.get(seat))
                for seat, order in theirs.items()
            ]
            for index, (card, special) in enumerate(candidates):
                table = start.copy()
                plays = [(card, me, special), *first]
                orders = {me: [c for c in mine if c != card]}
                orders.update((seat, order[:]) for seat, order in theirs.items())
                now = table.play(plays, {me: orders[me]}).get(me, 0)
                rest = play_rest(table, orders, me)
                firsts[index][w] = now
                rests[index][w] = rest
                totals[index] += now + rest
        scores = [
            totals[index] / len(worlds) + premium(view, special)
            for index, (_, special) in enumerate(candidates)
        ]
        best = min(range(len(candidates)), key=lambda index: (scores[index], index))
        card, special = candidates[best]
        if REMPLACER in (view["specials"] or ()) and special is None:
            switching = self.remplacer_score(candidates, firsts, rests, card)
            if switching + premium(view, REMPLACER) < scores[best]:
                special = REMPLACER
        return {"type": "select", "card": card, "special": special}

    def remplacer_score(self, candidates, firsts, rests, card) -> float:
        """Mean heads with Remplacer on `card`: in each world the card of this turn's
        cheapest first turn (`card` on a tie), and its rollout."""
        plain = [i for i, (_, special) in enumerate(candidates) if special is None]
        keep = next(i for i in plain if candidates[i][0] == card)
        worlds = len(firsts[0])
        total = 0
        for w in range(worlds):
            chosen = min(plain, key=lambda i: (firsts[i][w], i != keep))
            total += firsts[chosen][w] + rests[chosen][w]
        return total / worlds

    # --- a too-low card's row --------------------------------------------------------------

    def choose_row(self, view: dict) -> dict:
        me = view["seat"]
        card = view["cards"][me]
        hand = sorted(view["hand"])
        rows = [index for index, stopped in enumerate(view["stops"]) if not stopped]
        rng = random.Random(decision_seed(self.seed, view))
        worlds = self.deal(view, rng, self.worlds_for(len(rows), view) if hand else 1)
        if worlds is None:
            return self.heuristic.decide(view)
        self.last_worlds = len(worlds)
        start = Table.of_view(view)
        specials = view["revealed_specials"] or [None] * view["players"]
        pending = [
            (played, seat, None if specials[seat] == REMPLACER else specials[seat])
            for seat, played in enumerate(view["cards"])
            if seat != me and played in (view["resolving"] or ())
        ]
        totals = [0.0] * len(rows)
        for world in worlds:
            mine = hand[:]
            rng.shuffle(mine)
            for index, row in enumerate(rows):
                table = start.copy()
                taken = table.take_row(row, card)
                taken += table.play(pending).get(me, 0)
                orders = {me: mine[:], **{seat: cards[:] for seat, cards in world.hands.items()}}
                totals[index] += taken + (play_rest(table, orders, me) if mine else 0)
        best = min(range(len(rows)), key=lambda index: (totals[index], index))
        return {"type": "row", "row": rows[best]}
