"""A batched simulator of the rest of a round, for the expert's rollouts (RULES §1.4).

Many independent copies ("worlds") of the table are advanced together with numpy: one
array operation places one card in every world at once. Each world holds 4 rows (their
last card, length and heads) and a penalty count per player. Player 0 is the seat the
rollouts are run for; the others are its opponents, in any fixed order.

The simulator knows only the placing rules. Who plays what is given to it as a card
sequence per world, turn and player, and a too-low card always takes the cheapest row.
"""

import numpy as np

from games.engine.nimmt import HEADS as PRINTED_HEADS

HEADS = np.array(PRINTED_HEADS, dtype=np.int64)
_FAR = 1 << 16  # larger than any difference between two cards


class Tables:
    """The rows and penalty piles of `worlds` copies of one table."""

    def __init__(self, rows: list[list[int]], worlds: int, players: int):
        last = [row[-1] for row in rows]
        lengths = [len(row) for row in rows]
        row_heads = [int(HEADS[row].sum()) for row in rows]
        self.worlds = worlds
        self.players = players
        self.last = np.tile(np.array(last, dtype=np.int64), (worlds, 1))
        self.length = np.tile(np.array(lengths, dtype=np.int64), (worlds, 1))
        self.heads = np.tile(np.array(row_heads, dtype=np.int64), (worlds, 1))
        self.penalty = np.zeros((worlds, players), dtype=np.int64)
        self._row_base = np.arange(worlds, dtype=np.int64) * len(rows)
        self._player_base = np.arange(worlds, dtype=np.int64) * players

    @classmethod
    def stacked(cls, tables: list["Tables"]) -> "Tables":
        """One batch holding the worlds of several batches, in order."""
        merged = cls.__new__(cls)
        merged.worlds = sum(t.worlds for t in tables)
        merged.players = tables[0].players
        for name in ("last", "length", "heads", "penalty"):
            setattr(merged, name, np.concatenate([getattr(t, name) for t in tables]))
        merged._row_base = np.arange(merged.worlds, dtype=np.int64) * merged.last.shape[1]
        merged._player_base = np.arange(merged.worlds, dtype=np.int64) * merged.players
        return merged

    def place(self, cards: np.ndarray, owners: np.ndarray) -> None:
        """Place one card in every world: `cards[w]`, played by player `owners[w]`."""
        last = self.last
        gaps = cards[:, None] - last
        gaps[gaps <= 0] = _FAR
        row = gaps.argmin(axis=1)
        too_low = cards < last.min(axis=1)
        if too_low.any():
            row = np.where(too_low, self.heads.argmin(axis=1), row)
        cell = self._row_base + row
        length = self.length.reshape(-1)
        row_heads = self.heads.reshape(-1)
        old_length = length[cell]
        old_heads = row_heads[cell]
        takes = too_low | (old_length == 5)
        self.penalty.reshape(-1)[self._player_base + owners] += old_heads * takes
        card_heads = HEADS[cards]
        last.reshape(-1)[cell] = cards
        length[cell] = np.where(takes, 1, old_length + 1)
        row_heads[cell] = np.where(takes, card_heads, old_heads + card_heads)

    def play_turn(self, cards: np.ndarray) -> None:
        """Reveal and resolve one turn: `cards[w, p]` is player p's card in world w."""
        order = np.argsort(cards, axis=1)
        ordered = np.take_along_axis(cards, order, axis=1)
        for k in range(cards.shape[1]):
            self.place(np.ascontiguousarray(ordered[:, k]), np.ascontiguousarray(order[:, k]))

    def play_turns(
        self, sequence: np.ndarray, *, choice=None, unseen: int = 100, fixed_first: bool = False
    ) -> None:
        """Play whole turns: `sequence[w, t, p]` is player p's card on turn t in world w.

        With `choice[p] = k > 1`, player p looks at its next k cards in the sequence each
        turn and plays the one of least `immediate_cost` instead of the first (the rest
        keep their order): a cheap stand-in for a player who avoids obvious takes. With
        `fixed_first`, player 0's first card is played as given (the card under test).
        `unseen` is how many cards the players have not seen yet when the rollout starts.
        """
        turns, players = sequence.shape[1], sequence.shape[2]
        looks = np.ones(players, dtype=np.int64) if choice is None else np.asarray(choice)
        for turn in range(turns):
            look = min(int(looks.max()), turns - turn)
            if look > 1:
                self._choose(sequence, turn, look, looks, fixed_first and turn == 0, unseen)
            self.play_turn(sequence[:, turn, :])
            unseen -= players

    def _choose(self, sequence, turn, look, looks, keep_first, unseen) -> None:
        window = sequence[:, turn : turn + look, :]
        density = (self.players - 1) / max(unseen, 1)
        cost = immediate_cost(self, window, density)
        cost[:, 1:, :] += np.where(np.arange(1, look)[:, None] >= looks[None, :], _FAR, 0)
        if keep_first:
            cost[:, 1:, 0] = _FAR
        best = cost.argmin(axis=1)[:, None, :]
        chosen = np.take_along_axis(window, best, axis=1)
        np.put_along_axis(window, best, window[:, :1, :], axis=1)
        window[:, :1, :] = chosen


def immediate_cost(tables: Tables, cards: np.ndarray, density: float) -> np.ndarray:
    """Rough heads each card risks if played now; `cards` is (worlds, ...) shaped.

    A too-low card takes the cheapest row; a card bound to a full row takes it; a card
    bound to a shorter row takes it only if the cards others drop into the gap below it
    fill that row first, which grows with the gap and with `density` (the share of the
    cards in the gap that others play this turn).
    """
    extra = (1,) * (cards.ndim - 1)
    last = tables.last.reshape(tables.worlds, *extra, -1)
    gaps = cards[..., None] - last
    gaps[gaps <= 0] = _FAR
    row = gaps.argmin(axis=-1)
    gap = np.take_along_axis(gaps, row[..., None], axis=-1)[..., 0]
    too_low = gap == _FAR
    row_heads = np.take_along_axis(tables.heads.reshape(last.shape), row[..., None], -1)[..., 0]
    length = np.take_along_axis(tables.length.reshape(last.shape), row[..., None], -1)[..., 0]
    overflow = np.minimum(1.0, gap * density) ** (5 - length)
    cheapest = tables.heads.min(axis=1).reshape(tables.worlds, *extra)
    return np.where(too_low, cheapest + 1.0, row_heads * overflow)
