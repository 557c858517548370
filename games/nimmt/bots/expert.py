"""The `expert` bot: Monte Carlo search over the cards it has not seen.

For a selection, it deals the unseen cards into the opponents' hands many times over
(each deal a "world", drawn only from what its view shows: own hand, rows, cards seen
this round, the card_limit deck, public draft picks), plays the rest of the round out in
every world once per candidate card, and selects the card with the best mean outcome.
Every candidate meets the same worlds (common random numbers), so the comparison between
candidates is much sharper than the spread of any single estimate. Rows are chosen the
same way; draft picks use the heuristic's rules of thumb.

The rollouts run in `rollout.Tables`, which advances all worlds at once. In them each
player, each turn, plays the least risky of the next few cards of its (randomly ordered)
hand: the seat itself weighs 3, opponents 2. Opponents modelled a little better than
random sharpen play against thoughtful players and cost little against random ones;
playing its own future turns sensibly keeps the seat from valuing a card as if it would
later play blindly. A rollout is scored by the heads the seat takes, or, when its round
ends the game, mostly by whether the seat wins (`utility`).
"""

import numpy as np

from games.bots.base import Bot, decision_seed

from .cards import known_hands, row_heads, unseen_cards
from .heuristic import HeuristicBot
from .rollout import Tables

# The search budget, in card placements per decision (worlds × cards left to place). It
# is a count, not a clock, so that a decision depends on the seed and the view only.
PLACEMENTS = 400_000
MIN_WORLDS = 64
MAX_WORLDS = 1_000

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
        self.plays = np.empty((worlds, turns, len(others)), dtype=np.int64)
        known = {s: cards for s, cards in known_hands(view).items() if len(cards) == turns}
        if turns == 0:
            return
        hidden = [i for i, seat in enumerate(others) if seat not in known]
        for i, seat in enumerate(others):
            if seat in known:
                cards = np.array(known[seat], dtype=np.int64)
                self.plays[:, :, i] = cards[rng.random((worlds, turns)).argsort(axis=1)]
        if not hidden:
            return
        held = {card for cards in known.values() for card in cards}
        pool = np.array([c for c in unseen_cards(view) if c not in held], dtype=np.int64)
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
    ):
        super().__init__(seed)
        self.placements = placements
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.own_look = own_look
        self.opponent_look = opponent_look
        self.rollouts = 0  # rounds or round remainders simulated so far, for benchmarks
        self._fallback = HeuristicBot(seed)

    def worlds_for(self, options: int, turns: int, players: int, pending: int = 0) -> int:
        work = options * (turns * players + pending)
        return int(min(self.max_worlds, max(self.min_worlds, self.placements // max(work, 1))))

    def select(self, view: dict) -> int:
        hand = sorted(view["hand"])
        if len(hand) == 1:
            return hand[0]
        players, turns = view["players"], len(hand)
        worlds = self.worlds_for(len(hand), turns, players)
        rng = np.random.default_rng(decision_seed(self.seed, view))
        try:
            world = World(view, rng, worlds, turns)
        except NotEnoughCards:
            return self._fallback.select(view)
        cards = np.array(hand, dtype=np.int64)
        own_order = cards[rng.random((worlds, turns)).argsort(axis=1)]
        sequences = np.empty((len(hand), worlds, turns, players), dtype=np.int64)
        sequences[:, :, :, 1:] = world.plays[None]
        for option, card in enumerate(hand):
            sequences[option, :, 0, 0] = card
            sequences[option, :, 1:, 0] = own_order[own_order != card].reshape(worlds, -1)
        tables = Tables(view["rows"], len(hand) * worlds, players)
        tables.play_turns(
            sequences.reshape(len(hand) * worlds, turns, players),
            choice=self.looks(players),
            unseen=len(unseen_cards(view)),
            fixed_first=True,
        )
        self.rollouts += tables.worlds
        scores = self.utility(view, world, tables.penalties).reshape(len(hand), worlds)
        return hand[int(scores.mean(axis=1).argmax())]

    def choose_row(self, view: dict) -> int:
        rows, me, players = view["rows"], view["seat"], view["players"]
        hand = sorted(view.get("hand") or ())
        revealed = view["revealed"]
        mine = revealed[me]
        owner = {card: seat for seat, card in enumerate(revealed)}
        pending = [c for c in sorted(view.get("resolving") or ()) if c != mine]
        turns = len(hand)
        worlds = self.worlds_for(len(rows), turns, players, len(pending))
        rng = np.random.default_rng(decision_seed(self.seed, view))
        try:
            world = World(view, rng, worlds, turns)
        except NotEnoughCards:
            return self._fallback.choose_row(view)
        batches = []
        for index in range(len(rows)):
            after = [list(row) for row in rows]
            after[index] = [mine]
            batch = Tables(after, worlds, players)
            batch.penalty[0] = row_heads(rows[index])
            batches.append(batch)
        tables = Tables.stacked(batches)
        player_of = {seat: i for i, seat in enumerate(world.seats)}
        size = tables.worlds
        for card in pending:
            tables.place(np.full(size, card), np.full(size, player_of[owner[card]]))
        if turns:
            own = np.array(hand, dtype=np.int64)[rng.random((worlds, turns)).argsort(axis=1)]
            sequence = np.concatenate([own[:, :, None], world.plays], axis=2)
            tables.play_turns(
                np.tile(sequence, (len(rows), 1, 1)),
                choice=self.looks(players),
                unseen=len(unseen_cards(view)),
            )
        self.rollouts += tables.worlds
        scores = self.utility(view, world, tables.penalties).reshape(len(rows), worlds)
        return int(scores.mean(axis=1).argmax())

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
