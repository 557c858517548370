"""The `expert` bot: Monte Carlo search over the cards it has not seen.

For a selection, it deals the unseen cards into the opponents' hands many times over
(each deal a "world", drawn only from what its view shows: own hand, rows, cards seen
this round, the card_limit deck, public draft picks), plays the rest of the round out in
every world once per candidate card, and selects the card with the best mean outcome.
Every candidate meets the same worlds (common random numbers), so the comparison between
candidates is much sharper than the spread of any single estimate. The worlds come in
stages, and after each the candidates clearly worse than the best (in paired differences
over the same worlds) are dropped, so an easy decision costs a fraction of a close one.
Rows are chosen the same way; draft picks use the heuristic's rules of thumb.

The rollouts run in `rollout.Tables`, which advances all worlds at once. In them each
player, each turn, plays the least risky of the next few cards of its (randomly ordered)
hand: the seat itself weighs 3, opponents 2. Opponents modelled a little better than
random sharpen play against thoughtful players and cost little against random ones;
playing its own future turns sensibly keeps the seat from valuing a card as if it would
later play blindly. A rollout is scored by the heads the seat takes, or, when its round
ends the game, mostly by whether the seat wins (`utility`).
"""

import numpy as np

from games.bots import race
from games.bots.base import Bot, awaited, decision_seed, legal_decisions

from .cards import known_hands, row_heads, unseen_cards
from .heuristic import HeuristicBot, selection_costs
from .rollout import CARD, Tables

# The search budget, in card placements per decision (worlds × cards left to place): it
# binds early in a round, when every card of a full hand is weighed over ten turns. It
# is a count, not a clock, so that a decision depends on the seed and the view only.
PLACEMENTS = 150_000
MIN_WORLDS = 64
MAX_WORLDS = 1_000

# The search weighs the choices over the worlds in stages, these shares of the budget; after
# each stage it drops the choices that are worse than the best by more than RACE_Z standard
# errors of their paired difference (`ExpertBot.race`).
STAGES = (0.25, 0.25, 0.5)
RACE_Z = 2.0
# Below this many worlds a search runs in one stage: numpy's cost per call dominates.
RACE_MIN_WORLDS = 200

# How many cards of its hand a rollout player weighs each turn (1: plays at random).
OWN_LOOK = 3
OPPONENT_LOOK = 2

# Weight, in heads, of winning rather than losing when a rollout ends the game.
GAME_END_WEIGHT = 15.0


class NotEnoughCards(Exception):
    """The view leaves fewer unseen cards than the opponents must hold."""


class World:
    """Sampled opponents' plays for the rest of the round, seen from one seat.

    Player 0 of the simulator is the seat itself; player i > 0 is `self.seats[i]`.
    `plays[w, t, i - 1]` is what player i plays on the t-th remaining turn of world w:
    a random order of a random hand is exactly how a random player plays, and it is
    also a fair sample of what a thoughtful opponent holds.
    """

    def __init__(self, view: dict, rng: np.random.Generator, worlds: int, turns: int):
        me = view["seat"]
        others = [seat for seat in range(view["players"]) if seat != me]
        self.seats = [me, *others]
        self.plays = np.empty((worlds, turns, len(others)), dtype=CARD)
        known = {s: cards for s, cards in known_hands(view).items() if len(cards) == turns}
        if turns == 0:
            return
        hidden = [i for i, seat in enumerate(others) if seat not in known]
        for i, seat in enumerate(others):
            if seat in known:
                cards = np.array(known[seat], dtype=CARD)
                self.plays[:, :, i] = cards[rng.random((worlds, turns)).argsort(axis=1)]
        if not hidden:
            return
        held = {card for cards in known.values() for card in cards}
        pool = np.array([c for c in unseen_cards(view) if c not in held], dtype=CARD)
        needed = len(hidden) * turns
        if len(pool) < needed:
            raise NotEnoughCards(f"{len(pool)} unseen cards for {needed} hidden ones")
        dealt = pool[rng.random((worlds, len(pool))).argsort(axis=1)[:, :needed]]
        dealt = dealt.reshape(worlds, len(hidden), turns)
        for j, i in enumerate(hidden):
            self.plays[:, :, i] = dealt[:, j, :]


def totals_so_far(view: dict) -> np.ndarray:
    """Each seat's heads so far in the game, as far as the view shows them."""
    totals = np.zeros(view["players"], dtype=np.int64)
    for scores in view.get("round_scores") or ():
        totals += np.array(scores, dtype=np.int64)
    for seat, pile in enumerate(view.get("piles") or ()):
        if pile.get("heads") is not None:
            totals[seat] += pile["heads"]
    return totals


class ExpertBot(Bot):
    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        placements: int = PLACEMENTS,
        min_worlds: int = MIN_WORLDS,
        max_worlds: int = MAX_WORLDS,
        own_look: int = OWN_LOOK,
        opponent_look: int = OPPONENT_LOOK,
        race_z: float = RACE_Z,
    ):
        super().__init__(seed)
        self.placements = placements
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.own_look = own_look
        self.opponent_look = opponent_look
        self.race_z = race_z
        self.rollouts = 0  # rounds or round remainders simulated so far, for benchmarks
        self._fallback = HeuristicBot(seed)

    def worlds_for(self, options: int, turns: int, players: int, pending: int = 0) -> int:
        work = options * (turns * players + pending)
        return int(min(self.max_worlds, max(self.min_worlds, self.placements // max(work, 1))))

    def select(self, view: dict) -> int:
        hand = sorted(view["hand"])
        if len(hand) == 1:
            return hand[0]
        options = self.select_outcomes(view)
        if options is None:
            return self._fallback.select(view)
        return options[0][0]

    def choose_row(self, view: dict) -> int:
        options = self.row_outcomes(view)
        if options is None:
            return self._fallback.choose_row(view)
        return options[0][0]

    def estimates(self, view: dict, also: dict | None = None) -> list[tuple[dict, float]]:
        """The decisions the expert weighs for `view`, each with the heads it expects the
        seat to take from there to the end of the round, in its order of preference.

        That order is the search's (`race`): the options still in the race when it
        stopped, by mean utility, then those it dropped. Utility is minus the heads, except
        in a round that may end the game, where winning counts too (`utility`); so the
        order is fewest heads first up to the noise of the worlds and that weight.
        `decide(view)` is the first decision. `also`, if legal, is always among them: the
        expert weighs every card of the hand and every row. When too few cards are unseen
        to deal the opponents' hands (NotEnoughCards), the estimates are the heuristic's
        immediate costs. A draft pick is not estimated: the expert's pick (and `also`)
        come with 0.0.
        """
        kind = awaited(view)
        if kind == "pick":
            first = self.decide(view)
            listed = [(first, 0.0)]
            if also is not None and also != first and also in legal_decisions(view):
                listed.append((also, 0.0))
            return listed
        if kind == "select":
            options = self.select_outcomes(view)
            if options is None:
                costs = selection_costs(view)
                options = sorted(((c, -cost, cost) for c, cost in costs.items()), key=_best)
            return [({"type": "select", "card": c}, heads) for c, _, heads in options]
        options = self.row_outcomes(view)
        if options is None:
            rows = view["rows"]
            options = [(i, -row_heads(r), float(row_heads(r))) for i, r in enumerate(rows)]
            options.sort(key=_best)
        return [({"type": "row", "row": i}, heads) for i, _, heads in options]

    def select_outcomes(self, view: dict) -> list[tuple[int, float, float]] | None:
        """(card, mean utility, mean heads) of each card of the hand, best first (`race`),
        or None when the opponents' hands cannot be dealt."""
        hand = sorted(view["hand"])
        players, turns = view["players"], len(hand)
        rng = np.random.default_rng(decision_seed(self.seed, view))
        cards = np.array(hand, dtype=CARD)
        unseen = len(unseen_cards(view))

        def run(worlds: int, alive: list[int]) -> tuple[World, np.ndarray]:
            world = World(view, rng, worlds, turns)
            own_order = cards[rng.random((worlds, turns)).argsort(axis=1)]
            sequences = np.empty((len(alive), worlds, turns, players), dtype=CARD)
            sequences[:, :, :, 1:] = world.plays[None]
            for option, index in enumerate(alive):
                card = hand[index]
                sequences[option, :, 0, 0] = card
                sequences[option, :, 1:, 0] = own_order[own_order != card].reshape(worlds, -1)
            tables = Tables(view["rows"], len(alive) * worlds, players)
            tables.play_turns(
                sequences.reshape(len(alive) * worlds, turns, players),
                choice=self.looks(players),
                unseen=unseen,
                fixed_first=True,
            )
            self.rollouts += tables.worlds
            return world, tables.penalties

        worlds = self.worlds_for(len(hand), turns, players)
        return self.race(view, hand, worlds, run)

    def row_outcomes(self, view: dict) -> list[tuple[int, float, float]] | None:
        """(row index, mean utility, mean heads) of each row the seat may take, best first
        (`race`), or None when the opponents' hands cannot be dealt."""
        rows, me, players = view["rows"], view["seat"], view["players"]
        hand = sorted(view.get("hand") or ())
        revealed = view["revealed"]
        mine = revealed[me]
        owner = {card: seat for seat, card in enumerate(revealed)}
        pending = [c for c in sorted(view.get("resolving") or ()) if c != mine]
        turns = len(hand)
        rng = np.random.default_rng(decision_seed(self.seed, view))
        unseen = len(unseen_cards(view))

        def run(worlds: int, alive: list[int]) -> tuple[World, np.ndarray]:
            world = World(view, rng, worlds, turns)
            batches = []
            for index in alive:
                after = [list(row) for row in rows]
                after[index] = [mine]
                batch = Tables(after, worlds, players)
                batch.penalty[0] = row_heads(rows[index])
                batches.append(batch)
            tables = Tables.stacked(batches)
            player_of = {seat: i for i, seat in enumerate(world.seats)}
            size = tables.worlds
            for card in pending:
                tables.place(np.full(size, card, dtype=CARD), np.full(size, player_of[owner[card]]))
            if turns:
                own = np.array(hand, dtype=CARD)[rng.random((worlds, turns)).argsort(axis=1)]
                sequence = np.concatenate([own[:, :, None], world.plays], axis=2)
                tables.play_turns(
                    np.tile(sequence, (len(alive), 1, 1)),
                    choice=self.looks(players),
                    unseen=unseen,
                )
            self.rollouts += tables.worlds
            return world, tables.penalties

        worlds = self.worlds_for(len(rows), turns, players, len(pending))
        return self.race(view, list(range(len(rows))), worlds, run)

    def race(self, view: dict, choices: list, worlds: int, run) -> list | None:
        """Weigh every choice over up to `worlds` sampled worlds, in stages (`STAGES`).

        `run(n, alive)` draws n new worlds and plays them out once per alive choice (by
        index), returning the worlds and their penalties, choice-major. After each stage a
        choice whose paired loss against the best (over the same worlds) exceeds `race_z`
        standard errors is dropped, and the race stops as soon as one choice is left: an
        easy decision costs a fraction of a close one. Returns (choice, mean utility, mean
        heads) per choice: those still in the race by utility, then the dropped ones.
        """
        alive = list(range(len(choices)))
        utilities: list[list[np.ndarray]] = [[] for _ in choices]
        heads: list[list[np.ndarray]] = [[] for _ in choices]
        done = 0
        for fraction in STAGES if worlds >= RACE_MIN_WORLDS else (1.0,):
            size = max(1, round(worlds * fraction))
            try:
                world, penalties = run(size, alive)
            except NotEnoughCards:
                return None
            done += size
            score = self.utility(view, world, penalties).reshape(len(alive), size)
            taken = penalties[:, 0].reshape(len(alive), size)
            for row, index in enumerate(alive):
                utilities[index].append(score[row])
                heads[index].append(taken[row].astype(float))
            if len(alive) == 1 or done >= worlds:
                break
            alive = self._survivors(alive, utilities)
            if len(alive) == 1:
                break
        outcomes = [
            (choice, float(np.concatenate(utilities[i]).mean()),
             float(np.concatenate(heads[i]).mean()), i in alive)
            for i, choice in enumerate(choices)
        ]  # fmt: skip
        outcomes.sort(key=lambda o: (not o[3], -o[1]))
        return [(choice, utility, taken) for choice, utility, taken, _ in outcomes]

    def _survivors(self, alive: list[int], utilities: list[list[np.ndarray]]) -> list[int]:
        """The alive choices not clearly worse than the best one, over the same worlds."""
        scores = {index: np.concatenate(utilities[index]) for index in alive}
        return race.survivors(alive, scores, self.race_z)

    def pick(self, view: dict) -> int:
        return self._fallback.pick(view)

    def looks(self, players: int) -> list[int]:
        return [self.own_look] + [self.opponent_look] * (players - 1)

    def utility(self, view: dict, world: World, penalty: np.ndarray) -> np.ndarray:
        """How good each rollout's end of round is for the seat (higher is better).

        Mostly its own heads taken; but when a rollout's round ends the game, winning
        or losing it is what counts.
        """
        own = -penalty[:, 0].astype(float)
        options = view["options"]
        final = totals_so_far(view)[world.seats] + penalty
        if options.get("end") == "rounds":
            ends = np.full(len(penalty), view["round"] >= options.get("rounds", 1))
        else:
            ends = final.max(axis=1) >= options.get("threshold", 66)
        if not ends.any():
            return own
        wins = final[:, 0] <= final[:, 1:].min(axis=1)
        return own + np.where(ends, GAME_END_WEIGHT * np.where(wins, 1.0, -1.0), 0.0)


def _best(outcome: tuple) -> float:
    """Sort key of (choice, utility, heads): highest utility first."""
    return -outcome[1]
