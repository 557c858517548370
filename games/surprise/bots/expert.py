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
seed and the view only. `estimates` gives every decision considered with its score (the
mean heads to the round's end, plus the premium of a special spent); `decide` plays the
lowest. The prompts other than a too-low card's row are the heuristic's, not estimated.
"""

import random
from collections import Counter

from games.bots.base import Bot, decision_seed
from games.surprise.engine.cards import NEGATIF, REMPLACER, SEPT, SPECIALS, STOP

from .heuristic import SurpriseHeuristicBot, premium, selection_options, unseen_cards
from .legal import awaited, legal_decisions
from .table import ROW_LIMIT, Table

# Card placements per decision: p95 about 95 ms of CPU on an idle machine; 6,000 with at
# most 40 worlds keeps it near 50 ms but measured weaker (docs/benchmarks.md).
PLACEMENTS = 20_000
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


def quick_cost(table: Table, card: int) -> int:
    """Heads `card` takes for sure if played now (0 when it fits a short row), or -1 when
    it is too low (see `safest`)."""
    target = table.target(card)
    if target < 0:
        return -1
    if table.caps[target] or len(table.rows[target]) >= ROW_LIMIT:
        return table.heads[target]
    return 0


def safest(table: Table, order: list, look: int) -> int:
    """The card a rollout player plays: the safest of the next `look` of its `order`; a
    too-low card costs the cheapest row's heads and one for the escape."""
    look = min(look, len(order))
    if look < 2:
        return order.pop(0)
    costs = [quick_cost(table, order[i]) for i in range(look)]
    if -1 in costs:
        escape = table.heads[table.cheapest()] + 1
        costs = [escape if cost < 0 else cost for cost in costs]
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

    def __init__(self, seed: int = 0, *, placements: int | None = None):
        super().__init__(seed)
        self.placements = placements or PLACEMENTS
        self.heuristic = SurpriseHeuristicBot(seed)
        self.last_worlds = 0  # worlds dealt for the last decision (for benchmarks)

    def decide(self, view: dict) -> dict:
        kind = awaited(view)
        self.last_worlds = 0
        if kind == "select" or (kind == "row" and sum(not stop for stop in view["stops"]) > 1):
            return self.estimates(view)[0][0]
        return self.heuristic.decide(view)

    def estimates(self, view: dict, also: dict | None = None) -> list[tuple[dict, float]]:
        """The decisions considered for `view`, each with its expected heads from now to
        the round's end (a selection's plus the premium of the special it spends), best
        first; `also` is among them when it is legal. A prompt other than a too-low
        card's row is the heuristic's, and its decisions are given 0.0 (not estimated)."""
        kind = awaited(view)
        if also is not None and also not in legal_decisions(view):
            also = None
        if kind == "select":
            scored = self.selection_scores(view, also)
        elif kind == "row":
            scored = self.row_scores(view, also)
        else:
            scored = [(self.heuristic.decide(view), 0.0)]
            if also is not None and also != scored[0][0]:
                scored.append((also, 0.0))
            return scored
        order = sorted(range(len(scored)), key=lambda index: (scored[index][1], index))
        return [scored[index] for index in order]

    def worlds_for(self, candidates: list, view: dict) -> int:
        work = len(candidates) * len(view["hand"]) * view["players"]
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

    def selection_scores(self, view: dict, also: dict | None) -> list[tuple[dict, float]]:
        """Each candidate selection (and `also`) with its mean heads over the worlds plus
        the premium of its special; Remplacer on the best plain card is valued as the
        card the seat would switch to in each world."""
        me = view["seat"]
        hand = sorted(view["hand"])
        candidates = self.candidates(view)
        rng = random.Random(decision_seed(self.seed, view))
        worlds = self.deal(view, rng, self.worlds_for(candidates, view))
        if worlds is None:
            return self.heuristic_scores(view, also)
        extra = []
        if also is not None:
            for wanted in ((also["card"], None), (also["card"], also["special"])):
                remplacer = wanted[1] == REMPLACER and len(hand) > 1
                if not remplacer and wanted not in candidates + extra:
                    extra.append(wanted)
        considered = len(candidates)  # `also` adds candidates without changing the others
        candidates = candidates + extra
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
        scored = [
            (
                {"type": "select", "card": card, "special": special},
                totals[index] / len(worlds) + premium(view, special),
            )
            for index, (card, special) in enumerate(candidates)
        ]
        if REMPLACER in (view["specials"] or ()) and len(hand) > 1:
            plain = [index for index, (_, special) in enumerate(candidates) if special is None]
            best = min(plain[:considered], key=lambda index: (scored[index][1], index))
            cards = [best]
            if also is not None and also["special"] == REMPLACER:
                cards.append(next(i for i in plain if candidates[i][0] == also["card"]))
            for index in dict.fromkeys(cards):
                card = candidates[index][0]
                switching = self.remplacer_score(candidates, firsts, rests, card)
                decision = {"type": "select", "card": card, "special": REMPLACER}
                scored.append((decision, switching + premium(view, REMPLACER)))
        return scored

    def heuristic_scores(self, view: dict, also: dict | None) -> list[tuple[dict, float]]:
        """The heuristic's decision and `also`, unestimated (0.0)."""
        scored = [(self.heuristic.decide(view), 0.0)]
        if also is not None and also != scored[0][0]:
            scored.append((also, 0.0))
        return scored

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

    def row_scores(self, view: dict, also: dict | None) -> list[tuple[dict, float]]:
        """Each unstopped row with the mean heads of taking it, then the turn's other
        cards and the rest of the round, over the worlds."""
        me = view["seat"]
        card = view["cards"][me]
        hand = sorted(view["hand"])
        rows = [index for index, stopped in enumerate(view["stops"]) if not stopped]
        rng = random.Random(decision_seed(self.seed, view))
        budget = self.worlds_for([(row, None) for row in rows], view) if hand else 1
        worlds = self.deal(view, rng, budget)
        if worlds is None:
            return self.heuristic_scores(view, also)
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
        return [
            ({"type": "row", "row": row}, totals[index] / len(worlds))
            for index, row in enumerate(rows)
        ]
