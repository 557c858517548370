"""`surprise_expert`: determinized Monte Carlo over what the seat has not seen (RULES §2).

For a selection it deals, many times over, the unseen number cards into the opponents'
hands and the unseen specials into their hands and the draw pile, as many as the view
shows each holds (a "world"). In every world it plays each candidate — a card alone, or
with a special where the heuristic finds it useful, or with Stop — through the turn and
the next few (HORIZON) on `table.Table`, and keeps the candidate with the fewest heads on
average, plus the premium the heuristic puts on a special spent (the rollouts play no
specials after the first turn, so they do not see what a special kept is worth).
Every candidate meets the same worlds (common random numbers), dealt in stages: after
each stage the candidates clearly worse than the best (paired differences over the same
worlds) are dropped, so an easy decision costs a fraction of a close one. Remplacer is
valued without more rollouts: in each world the seat would, once the cards are
revealed, switch to the card that costs least this turn, so its value is that card's
rollout.

The opponents are modelled as the heuristic bots they usually are: in each world an
opponent's first card is the one `surprise_heuristic` would select from its dealt hand
and specials (`OpponentGuess`: its costs are computed once per card for all worlds).
Afterwards every player, the seat too, plays each turn the card of its hand the
heuristic would find least risky, roughly (`wisest`), for HORIZON turns in all: the
last turns of a round add noise more than information, and the budget buys more worlds
instead. A too-low card's row is chosen the same way: every unstopped row, then the
rest of the turn and the next turns. The other prompts are the heuristic's.

The budget is a count of card placements, not a clock, so a decision depends on the
seed and the view only. `estimates` gives every decision considered with its score (the
mean heads over the turns played, plus the premium of a special spent; a candidate dropped
early is scored as the best one plus their mean paired difference); `decide` plays the
lowest. The prompts other than a too-low card's row are the heuristic's, not estimated.
"""

import random
from collections import Counter

from games.bots import race
from games.bots.base import Bot, decision_seed
from games.nimmt.bots.heuristic import (
    ESCAPE_PREMIUM,
    FIFTH_CARD_PENALTY,
    GAP_PENALTY,
    chance_at_least,
)
from games.surprise.engine.cards import (
    CINQUIEME,
    GLISSER,
    INSERER,
    REMPLACER,
    SEPT,
    SPECIALS,
    STOP,
)

from .heuristic import (
    SurpriseHeuristicBot,
    premium,
    risk_cost,
    selection_options,
    special_cost,
    unseen_cards,
)
from .legal import awaited, legal_decisions
from .table import ROW_LIMIT, Table

# Card placements per decision (candidates × worlds × turns played × players), before the
# race drops candidates: p95 under 50 ms of CPU (docs/benchmarks.md).
PLACEMENTS = 8_000
MIN_WORLDS = 8
MAX_WORLDS = 300
MAX_PLAIN = 8  # the cards the heuristic finds safest, played without a special
MAX_CANDIDATES = 12
# Turns a rollout plays, this one included: the later turns of a round, played by rules
# of thumb on a guessed deal, mostly add noise; the budget goes to more worlds instead.
HORIZON = 6
# The worlds come in stages, these shares of the total; after each stage the candidates
# worse than the best by more than RACE_Z standard errors of the paired difference over
# the same worlds are dropped (`SurpriseExpertBot.survivors`).
STAGES = (0.25, 0.25, 0.5)
RACE_Z = 2.0
RACE_MIN_STAGE = 6  # fewer worlds than this in a stage: no race, one stage


GUESSED = (SEPT, CINQUIEME, INSERER, GLISSER)  # the specials an opponent's guess may carry


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


class OpponentGuess:
    """What a heuristic opponent selects on this turn's table from a dealt hand and its
    specials: the cheapest (cost, card) of `heuristic.selection_options`, with its plain
    costs computed once per card for all worlds (against the cards the seat has not seen
    and its own hand, nearly what that opponent has not seen). Remplacer and Stop are
    not modelled."""

    def __init__(self, view: dict, table: Table):
        self.view = view
        self.table = table
        self.unseen = sorted(unseen_cards(view) + list(view["hand"]))
        self.opponents = view["players"] - 1
        self.plain = {}
        self.special = {}
        self.premium = {s: premium(view, s) for s in GUESSED}

    def cost(self, card: int) -> float:
        cost = self.plain.get(card)
        if cost is None:
            cost = risk_cost(self.table, card, self.unseen, self.opponents)
            self.plain[card] = cost
        return cost

    def special_cost(self, card: int, special) -> float | None:
        key = (card, special)
        if key not in self.special:
            cost = special_cost(self.table, card, special, self.cost(card))
            self.special[key] = None if cost is None else cost + self.premium[special]
        return self.special[key]

    def choose(self, hand: list, specials: list) -> tuple[int, object]:
        best = min((self.cost(card), card) for card in hand)
        choice = (best[1], None)
        for special in GUESSED:
            # A special costs at least its premium: skip it when a plain card is cheaper.
            if special not in specials or self.premium[special] >= best[0]:
                continue
            for card in hand:
                cost = self.special_cost(card, special)
                if cost is not None and (cost, card) < best:
                    best, choice = (cost, card), (card, special)
        return choice


# chance_at_least(need, tries, gap / 104): the heuristic's risk of a card `gap` above its
# row's last card, with the unseen cards taken as spread evenly over the deck.
RISKS = {}


def risks(tries: int) -> list[list[float]]:
    if tries not in RISKS:
        RISKS[tries] = [
            [chance_at_least(need, tries, gap / 104) for gap in range(105)]
            for need in range(ROW_LIMIT + 1)
        ]
    return RISKS[tries]


def wisest(table: Table, hand: list, risk: list) -> int:
    """The card a rollout player plays, removed from `hand`: the lowest `risk_cost`, as
    the heuristic would choose it, roughly (the gap's share of the unseen cards is read
    from the card numbers, `risks`); the first of `hand` on a tie."""
    rows, stops, caps, heads = table.rows, table.stops, table.caps, table.heads
    lasts = [-1 if stops[i] else (row[-1] if row else 0) for i, row in enumerate(rows)]
    escape = None
    best, best_cost = 0, None
    for i, card in enumerate(hand):
        target, low = -1, -1
        for index, last in enumerate(lasts):
            if low < last < card:
                target, low = index, last
        if target < 0:
            if escape is None:
                escape = heads[table.cheapest()] + ESCAPE_PREMIUM
            cost = escape
        elif caps[target]:
            cost = heads[target]
        else:
            need = ROW_LIMIT - len(rows[target])
            if need <= 0:
                cost = heads[target]
            else:
                chance = risk[need][card - low]
                cost = chance * (heads[target] + 1.2 * need) + GAP_PENALTY * (card - low)
                if need == 1:
                    cost += (1 - chance) * FIFTH_CARD_PENALTY * heads[target]
        if best_cost is None or cost < best_cost:
            best, best_cost = i, cost
    return hand.pop(best)


def play_rest(table: Table, hands: dict, me: int) -> int:
    """Play on `table` the hands in `hands` (seat -> cards, changed in place), each seat
    its `wisest` card, for at most HORIZON - 1 turns; the heads `me` takes."""
    taken = 0
    stop = max(0, len(hands[me]) - HORIZON + 1)
    risk = risks(len(hands) - 1)
    while len(hands[me]) > stop:
        plays = [(wisest(table, hand, risk), seat, None) for seat, hand in hands.items()]
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
        """The decisions considered for `view`, each with its expected heads over the next
        HORIZON turns, this one included (a selection's plus the premium of the special
        it spends), best first; `also` is among them when it is legal. A prompt other than a too-low
        card's row is the heuristic's, and its decisions are given 0.0 (not estimated)."""
        kind = awaited(view)
        if also is not None and also not in legal_decisions(view):
            also = None
        if kind == "select":
            scored = self.selection_scores(view, also)
        elif kind == "row":
            scored = self.row_scores(view, also)
        else:
            return self.heuristic_scores(view, also)
        order = sorted(range(len(scored)), key=lambda index: (scored[index][1], index))
        return [scored[index] for index in order]

    def worlds_for(self, candidates: list, view: dict) -> int:
        work = len(candidates) * min(len(view["hand"]), HORIZON) * view["players"]
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
        guess = OpponentGuess(view, start)
        premiums = [premium(view, special) for _, special in candidates]
        firsts = [[None] * len(worlds) for _ in candidates]
        rests = [[None] * len(worlds) for _ in candidates]
        alive = list(range(considered))
        done = 0
        for end in self.stage_ends(len(worlds)):
            for w in range(done, end):
                world = worlds[w]
                mine = hand[:]
                rng.shuffle(mine)
                theirs = {}
                first = []
                for seat, cards in world.hands.items():
                    card, special = guess.choose(cards, world.specials[seat])
                    first.append((card, seat, special))
                    theirs[seat] = [c for c in cards if c != card]
                for index in alive + list(range(considered, len(candidates))):
                    card, special = candidates[index]
                    table = start.copy()
                    orders = {me: [c for c in mine if c != card]}
                    orders.update((seat, order[:]) for seat, order in theirs.items())
                    now = table.play([(card, me, special), *first], {me: orders[me]}).get(me, 0)
                    firsts[index][w] = now
                    rests[index][w] = play_rest(table, orders, me)
            done = end
            if end < len(worlds):
                alive = self.survivors(alive, firsts, rests, premiums, done)
        totals = [
            [f + r for f, r in zip(first, rest, strict=False) if f is not None]
            for first, rest in zip(firsts, rests, strict=True)
        ]
        means = [sum(t) / len(t) + p for t, p in zip(totals, premiums, strict=True)]
        best = min(alive, key=lambda index: (means[index], index))
        for index in range(considered):
            if index not in alive:
                # Dropped after fewer worlds: the best's mean plus the paired difference
                # over the worlds both saw, so the figures stay comparable.
                seen = len(totals[index])
                loss = sum(totals[index][w] - totals[best][w] for w in range(seen)) / seen
                means[index] = means[best] + loss + premiums[index] - premiums[best]
        scored = [
            ({"type": "select", "card": card, "special": special}, means[index])
            for index, (card, special) in enumerate(candidates)
        ]
        if REMPLACER in (view["specials"] or ()) and len(hand) > 1:
            plain = [i for i in range(considered) if candidates[i][1] is None]
            cards = [min(plain, key=lambda index: (means[index], index))]
            if also is not None and also["special"] == REMPLACER:
                cards.append(
                    next(
                        i
                        for i, (card, special) in enumerate(candidates)
                        if special is None and card == also["card"]
                    )
                )
            for index in dict.fromkeys(cards):
                switching = self.remplacer_score(plain, firsts, rests, index)
                decision = {"type": "select", "card": candidates[index][0], "special": REMPLACER}
                scored.append((decision, switching + premium(view, REMPLACER)))
        return scored

    @staticmethod
    def stage_ends(worlds: int) -> list[int]:
        """Where each stage of the race ends, in worlds dealt."""
        if worlds * STAGES[0] < RACE_MIN_STAGE:
            return [worlds]
        ends, total = [], 0.0
        for share in STAGES:
            total += share
            ends.append(min(worlds, round(worlds * total)))
        return ends

    @staticmethod
    def survivors(alive, firsts, rests, premiums, done) -> list[int]:
        """The alive candidates not clearly worse than the best over the first `done`
        worlds (paired differences, RACE_Z standard errors)."""
        totals = {
            index: [firsts[index][w] + rests[index][w] + premiums[index] for w in range(done)]
            for index in alive
        }
        return race.survivors(alive, totals, RACE_Z, lower_is_better=True)

    def heuristic_scores(self, view: dict, also: dict | None) -> list[tuple[dict, float]]:
        """The heuristic's decision and `also`, unestimated (0.0)."""
        scored = [(self.heuristic.decide(view), 0.0)]
        if also is not None and also != scored[0][0]:
            scored.append((also, 0.0))
        return scored

    def remplacer_score(self, plain, firsts, rests, keep) -> float:
        """Mean heads with Remplacer on candidate `keep`: in each world the plain card of
        this turn's cheapest first turn among those weighed there (`keep` on a tie), and
        its rollout."""
        total, worlds = 0, 0
        for w in range(len(firsts[0])):
            weighed = [i for i in dict.fromkeys([*plain, keep]) if firsts[i][w] is not None]
            if weighed:  # none when every plain card was dropped before world w
                chosen = min(weighed, key=lambda i: (firsts[i][w], i != keep))
                total += firsts[chosen][w] + rests[chosen][w]
                worlds += 1
        return total / worlds

    # --- a too-low card's row --------------------------------------------------------------

    def row_scores(self, view: dict, also: dict | None) -> list[tuple[dict, float]]:
        """Each unstopped row with the mean heads of taking it, then the turn's other
        cards and the next turns (up to HORIZON in all), over the worlds."""
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
