"""A batched simulator of the rest of a round, for the expert's rollouts (RULES §1.4).

Many independent copies ("worlds") of the table are advanced together with numpy: one
array operation places one card in every world at once. Each world holds 4 rows (their
last card, length and heads) and a penalty count per player. Player 0 is the seat the
rollouts are run for; the others are its opponents, in any fixed order.

The simulator knows only the placing rules. Who plays what is given to it as a card
sequence per world, turn and player, and a too-low card always takes the cheapest row.

Cards are kept as uint8, so `card - last` wraps around for a row that ends higher than
the card: the smallest wrapped difference is the card's row (RULES §1.4), and a smallest
difference above 104 means the card is too low for every row.
"""

import numpy as np

from games.nimmt.engine import HEADS as PRINTED_HEADS

CARD = np.uint8
HEADS = np.array(PRINTED_HEADS, dtype=np.uint8)
_HIGHEST = len(PRINTED_HEADS) - 1  # 104: no real difference between two cards exceeds it
_FAR = 255


def lowest(values: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise minimum of one array per row (values below 16384), and the (first) row
    holding it, both as uint16.

    Each value is packed with its row index (value × 4 + row) so that one `np.minimum` per
    row finds both: much faster in numpy than a reduction along a short axis or `where`s.
    """
    best = None
    for index, value in enumerate(values):
        key = value.astype(np.uint16)
        key <<= 2
        key |= index
        best = key if best is None else np.minimum(best, key, out=best)
    return best >> 2, best & 3


class Tables:
    """The rows and penalty piles of `worlds` copies of one table.

    Arrays are laid out row (or player) first: `last[r, w]` is the last card of row r in
    world w, `penalty[p, w]` what player p took in world w.
    """

    def __init__(self, rows: list[list[int]], worlds: int, players: int):
        def tiled(values, dtype):
            return np.repeat(np.array(values, dtype=dtype)[:, None], worlds, axis=1)

        self.worlds = worlds
        self.players = players
        self.last = tiled([row[-1] for row in rows], CARD)
        self.length = tiled([len(row) for row in rows], np.uint8)
        self.heads = tiled([int(HEADS[row].sum()) for row in rows], np.uint8)
        self.penalty = np.zeros((players, worlds), dtype=np.int32)
        self._world = np.arange(worlds, dtype=np.intp)

    @classmethod
    def stacked(cls, tables: list["Tables"]) -> "Tables":
        """One batch holding the worlds of several batches, in order."""
        merged = cls.__new__(cls)
        merged.worlds = sum(t.worlds for t in tables)
        merged.players = tables[0].players
        for name in ("last", "length", "heads", "penalty"):
            setattr(merged, name, np.concatenate([getattr(t, name) for t in tables], axis=1))
        merged._world = np.arange(merged.worlds, dtype=np.intp)
        return merged

    @property
    def penalties(self) -> np.ndarray:
        """What each player took: `penalties[w, p]`."""
        return self.penalty.T

    def place(self, cards: np.ndarray, owners: np.ndarray) -> None:
        """Place one card in every world: `cards[w]`, played by player `owners[w]`."""
        cards = cards.astype(CARD, copy=False)
        gap, row = lowest([cards - last for last in self.last])  # wraps for higher rows
        too_low = gap > _HIGHEST
        if too_low.any():
            row = np.where(too_low, lowest(list(self.heads))[1], row)
        cell = row.astype(np.intp) * self.worlds + self._world
        length = self.length.reshape(-1)
        row_heads = self.heads.reshape(-1)
        old_length = length[cell]
        old_heads = row_heads[cell]
        takes = too_low | (old_length == 5)
        self.penalty.reshape(-1)[owners * self.worlds + self._world] += old_heads * takes
        card_heads = HEADS[cards]
        self.last.reshape(-1)[cell] = cards
        length[cell] = np.where(takes, 1, old_length + 1)
        row_heads[cell] = np.where(takes, card_heads, old_heads + card_heads)

    def play_turn(self, cards: np.ndarray) -> None:
        """Reveal and resolve one turn: `cards[w, p]` is player p's card in world w."""
        # Sorting card × 16 + player sorts the cards and keeps who played each.
        keys = cards.astype(np.uint16) << 4
        keys |= np.arange(cards.shape[1], dtype=np.uint16)
        keys.sort(axis=1)
        ordered = (keys >> 4).astype(CARD).T.copy()
        owners = (keys & 15).astype(np.intp).T.copy()
        for k in range(cards.shape[1]):
            self.place(ordered[k], owners[k])

    def play_turns(
        self, sequence: np.ndarray, *, choice=None, unseen: int = 100, fixed_first: bool = False
    ) -> None:
        """Play whole turns: `sequence[w, t, p]` is player p's card on turn t in world w.

        With `choice[p] = k > 1`, player p looks at its next k cards in the sequence each
        turn and plays the one of least `immediate_cost` instead of the first (the rest
        keep their order): a cheap stand-in for a player who avoids obvious takes. With
        `fixed_first`, player 0's first card is played as given (the card under test).
        `unseen` is how many cards the players have not seen yet when the rollout starts.
        The sequence is reordered in place to what was played.
        """
        turns, players = sequence.shape[1], sequence.shape[2]
        looks = np.ones(players, dtype=np.intp) if choice is None else np.asarray(choice)
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
        best = cost.argmin(axis=1)
        first = window[:, 0, :].copy()
        for k in range(1, look):  # swap each player's best card to the front
            here = best == k
            window[:, 0, :] = np.where(here, window[:, k, :], window[:, 0, :])
            window[:, k, :] = np.where(here, first, window[:, k, :])


def immediate_cost(tables: Tables, cards: np.ndarray, density: float) -> np.ndarray:
    """Rough heads each card risks if played now; `cards` is (worlds, ...) shaped.

    A too-low card takes the cheapest row (plus one head for spending an escape); a card
    bound to a full row takes it; a card bound to a shorter row takes it only if the cards
    others drop into the gap below it fill that row first, which grows with the gap and
    with `density` (the share of the unseen cards that others play each turn).
    """
    shape = (tables.worlds,) + (1,) * (cards.ndim - 1)
    cards = cards.astype(CARD)
    gap, row = lowest([cards - last.reshape(shape) for last in tables.last])
    too_low = gap > _HIGHEST
    cell = row.astype(np.intp) * tables.worlds + tables._world.reshape(shape)
    row_heads = tables.heads.reshape(-1)[cell]
    need = 5 - tables.length.reshape(-1)[cell]  # 0..4 cards to fill the row first
    overflow = _overflow_table(density)[need.astype(np.intp) * 256 + gap]
    cheapest = lowest(list(tables.heads))[0].reshape(shape)
    return np.where(too_low, cheapest + np.float32(1.0), row_heads * overflow)


def _overflow_table(density: float) -> np.ndarray:
    """min(1, gap × density) ** need for need 0..5 and gap 0..255, flat (need × 256 + gap)."""
    chance = np.minimum(np.float32(1.0), np.arange(256, dtype=np.float32) * np.float32(density))
    return (chance[None, :] ** np.arange(6, dtype=np.float32)[:, None]).ravel()
