"""A small mutable table of 6 qui surprend for the bots' look-ahead (RULES §2.3, §2.5).

It knows the placing rule with Stops, caps, empty rows and the 5th row, and the effect
of the specials a card carries (7 qui surprend, 5e série, Insérer, Glisser, Stop), but
none of the prompts: every choice a rule leaves to a player is made by a rule of thumb
(a too-low card takes the cheapest row; Insérer, Glisser and Stop as `insert_choice`,
`glisser_choice` and `stop_choice` say). The engine (games/surprise/engine) stays the
only judge of legality; this is an estimate, made for speed.
"""

from games.surprise.engine.cards import CINQUIEME, GLISSER, HEADS, INSERER, SEPT, STOP

ROW_COUNT = 4
ROW_LIMIT = 5
STOP_LIMIT = 2


def heads_of(cards) -> int:
    return sum(HEADS[card] for card in cards)


class Table:
    __slots__ = ("caps", "heads", "rows", "stops")

    def __init__(self, rows, stops, caps):
        self.rows = [list(row) for row in rows]
        self.stops = list(stops)
        self.caps = list(caps)
        self.heads = [heads_of(row) for row in self.rows]  # kept up to date: read often

    @classmethod
    def of_view(cls, view: dict) -> "Table":
        return cls(view["rows"], view["stops"], view["caps"])

    def copy(self) -> "Table":
        new = object.__new__(Table)
        new.rows = [row[:] for row in self.rows]
        new.stops = self.stops[:]
        new.caps = self.caps[:]
        new.heads = self.heads[:]
        return new

    # --- reading ---------------------------------------------------------------------------

    def target(self, card: int) -> int:
        """RULES 1.4 with 2.5: the row `card` goes to, or -1 when it is too low."""
        best, best_last = -1, -1
        stops = self.stops
        for index, row in enumerate(self.rows):
            if stops[index]:
                continue
            last = row[-1] if row else 0
            if best_last < last < card:
                best, best_last = index, last
        return best

    def cheapest(self) -> int:
        """The row a too-low card takes by our rule of thumb: fewest heads, then shortest."""
        best, best_key = -1, None
        for index, row in enumerate(self.rows):
            if self.stops[index]:
                continue
            key = (self.heads[index], len(row))
            if best_key is None or key < best_key:
                best, best_key = index, key
        return best

    def open_rows(self) -> list[int]:
        return [i for i in range(len(self.rows)) if not self.stops[i] and not self.caps[i]]

    # --- placing ---------------------------------------------------------------------------

    def place(self, card: int, special=None, hand=()) -> int:
        """Resolve `card` with its `special`; the heads its player takes. `hand` is what
        the player still holds (Glisser and Stop choose with it in mind)."""
        taken = 0
        if special == CINQUIEME and len(self.rows) == ROW_COUNT:
            self.rows.append([card])
            self.stops.append(False)
            self.caps.append(False)
            self.heads.append(HEADS[card])
            return 0
        if special == INSERER and self.open_rows():
            row, position = insert_choice(self, card)
            return self.insert(card, row, position)
        if special == GLISSER:
            move = glisser_choice(self, card)
            if move is not None:
                taken, done = self.slide(move, card)
                if done:
                    return taken
        taken += self.place_plain(card, special == SEPT)
        if special == STOP and sum(self.stops) < STOP_LIMIT:
            self.stops[stop_choice(self, hand)] = True
        return taken

    def place_plain(self, card: int, sept=False) -> int:
        target = self.target(card)
        if target < 0:
            row = self.cheapest()
            if row < 0:  # every row stopped: cannot happen with at most 2 Stops
                return 0
            return self.take_row(row, card)
        if self.caps[target]:
            return self.take_row(target, card)
        row = self.rows[target]
        if sept:
            row.append(card)
            self.heads[target] += HEADS[card]
            self.caps[target] = True
            return 0
        if len(row) >= ROW_LIMIT:
            return self.take_row(target, card, sixth=True)
        row.append(card)
        self.heads[target] += HEADS[card]
        return 0

    def take_row(self, index: int, card: int, sixth=False) -> int:
        row = self.rows[index]
        six = len(row) + sixth == ROW_LIMIT + 1
        taken = self.heads[index]
        self.caps[index] = False
        if len(self.rows) > ROW_COUNT:
            self.remove_row(index)
            taken += HEADS[card]
        else:
            self.rows[index] = [card]
            self.heads[index] = HEADS[card]
        if six:
            self.stops = [False] * len(self.rows)
        return taken

    def remove_row(self, index: int) -> None:
        del self.rows[index]
        del self.stops[index]
        del self.caps[index]
        del self.heads[index]

    def insert(self, card: int, index: int, position: int) -> int:
        row = self.rows[index]
        row.insert(position, card)
        self.heads[index] += HEADS[card]
        if len(row) <= ROW_LIMIT:
            return 0
        if len(self.rows) > ROW_COUNT:
            self.remove_row(index)
            taken = heads_of(row)
        else:
            self.rows[index] = row[ROW_LIMIT:]
            self.heads[index] = heads_of(self.rows[index])
            taken = heads_of(row[:ROW_LIMIT])
        self.stops = [False] * len(self.rows)
        return taken

    def slide(self, move, card: int) -> tuple[int, bool]:
        """Glisser's move; (heads taken, whether that take also took `card`)."""
        source, index, target, position = move
        moved = self.rows[source].pop(index)
        self.heads[source] -= HEADS[moved]
        row = self.rows[target]
        row.insert(position, moved)
        self.heads[target] += HEADS[moved]
        if len(row) <= ROW_LIMIT:
            return 0, False
        self.stops = [False] * len(self.rows)
        if len(self.rows) > ROW_COUNT:
            self.remove_row(target)
            return heads_of(row) + HEADS[card], True
        self.rows[target] = row[ROW_LIMIT:]
        self.heads[target] = heads_of(self.rows[target])
        return heads_of(row[:ROW_LIMIT]), False

    def play(self, plays, hands=None) -> dict:
        """Resolve a turn's `plays` [(card, player, special)], lowest card first; the
        heads each player took. `hands` (player -> cards kept) guides Stops."""
        taken = {}
        for card, player, special in sorted(plays):
            hand = hands.get(player, ()) if hands and special is not None else ()
            taken[player] = taken.get(player, 0) + self.place(card, special, hand)
        return taken


# --- the rules of thumb for choices --------------------------------------------------------


def insert_choice(table: Table, card: int) -> tuple[int, int]:
    """Insérer: into an open row that stays within 5 cards, the longest (a fuller row is
    a trap for the next cards), before its last card; else the open row whose first 5
    cards hold the fewest heads."""
    best, best_key = None, None
    for index in table.open_rows():
        row = table.rows[index]
        if len(row) < ROW_LIMIT:
            key = (0, -len(row))
        else:
            key = (1, heads_of(row[: ROW_LIMIT - 1]) + HEADS[card])
        if best_key is None or key < best_key:
            best, best_key = index, key
    return best, max(len(table.rows[best]) - 1, 0)


def glisser_moves(table: Table):
    rows = table.rows
    usable = table.open_rows()
    for source in usable:
        for index in range(len(rows[source])):
            for target in usable:
                if target != source:
                    for position in range(len(rows[target]) + 1):
                        yield source, index, target, position


# Glisser's choice for recent (table, card) pairs: a rollout meets the same table again
# and again (every candidate of a decision, before its own card lands), and the search
# over moves is the dearest step of a turn. A pure function of its key, so caching it
# changes no decision.
GLISSER_CACHE: dict = {}
GLISSER_CACHE_SIZE = 20_000


def glisser_choice(table: Table, card: int):
    """Glisser: the move after which the card costs least (its take included); among
    those, the first found (`search_glisser`). None when no move exists."""
    key = (card, tuple(map(tuple, table.rows)), tuple(table.stops), tuple(table.caps))
    move = GLISSER_CACHE.get(key, False)
    if move is False:
        if len(GLISSER_CACHE) >= GLISSER_CACHE_SIZE:
            GLISSER_CACHE.clear()
        move = GLISSER_CACHE[key] = search_glisser(table, card)
    return move


def search_glisser(table: Table, card: int):
    rows = table.rows
    target = table.target(card)

    def unlikely(move) -> bool:
        # Tried first, as they most often cost nothing: emptying a row (a too-low card
        # then starts it) and moving away the last card of the card's row.
        source, index = move[:2]
        return not (len(rows[source]) == 1 or (source == target and index == len(rows[source]) - 1))

    best, best_cost = None, None
    for move in sorted(glisser_moves(table), key=unlikely):
        trial = table.copy()
        cost, done = trial.slide(move, card)
        if not done:
            cost += trial.place_plain(card)
        if best_cost is None or cost < best_cost:
            best, best_cost = move, cost
            if cost == 0:
                break
    return best


def stop_choice(table: Table, hand) -> int:
    """Stop: the row without a Stop most dangerous to the cards still in `hand` (each card
    bound to it weighs the row's heads, more the fuller it is); else the costliest."""
    danger = [0.0] * len(table.rows)
    for card in hand:
        target = table.target(card)
        if target >= 0:
            row = table.rows[target]
            danger[target] += heads_of(row) * (len(row) + 1) / (ROW_LIMIT + 1)
    free = [index for index, stopped in enumerate(table.stops) if not stopped]
    return max(free, key=lambda i: (danger[i], heads_of(table.rows[i]), -i))
