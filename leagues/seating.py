"""Who sits with whom in a round of a club evening or a tournament.

Pure: players are ids, `met` counts how often each pair already shared a table. A
seating is improved by swapping two players of different tables while that lowers its
cost; a repeat pairing costs more than any spread of ranks, so repeats are avoided first
and, by standing, players of similar rank are kept together second.
"""

import math
import random
from collections import Counter
from itertools import combinations

MAX_TABLE = 10
# Bigger than the largest possible spread of ranks at one table.
REPEAT_COST = 100_000


class SeatingError(ValueError):
    pass


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings(tables) -> Counter:
    """How often each pair of players shared a table, over the given tables' players."""
    met = Counter()
    for players in tables:
        for a, b in combinations(players, 2):
            met[pair(a, b)] += 1
    return met


def table_sizes(count: int, size: int, *, smallest: int = 2, equal: bool = False) -> list[int]:
    """Split `count` players into as few tables of at most `size` as can be, as evenly as
    possible (9 players, 4 to 5 a table: 5 + 4).

    A table never has fewer than `smallest` players: where `size` cannot be kept with that,
    fewer and bigger tables are made. `equal` (duplicate tournaments) wants every table
    exactly `size`, so that every table can be dealt the same cards.
    """
    if count < 2:
        raise SeatingError("at least two players are needed")
    size = max(2, min(size, MAX_TABLE))
    if equal:
        if count % size:
            raise SeatingError(f"{count} players cannot sit at tables of {size}")
        return [size] * (count // size)
    smallest = max(2, min(smallest, size))
    tables = math.ceil(count / size)
    while tables > 1 and count // tables < smallest:
        tables -= 1
    base, extra = divmod(count, tables)
    if base + (extra > 0) > MAX_TABLE:
        tables = math.ceil(count / MAX_TABLE)
        base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def plan(
    players: list[int],
    sizes: list[int],
    *,
    met: Counter,
    ranks: dict[int, int] | None = None,
    rng: random.Random,
    restarts: int = 30,
) -> list[list[int]]:
    """Tables (lists of players, in seat order) for one round.

    Without `ranks` the seating is random among those with the fewest repeat opponents;
    with `ranks` (0 is the leader) it starts from tables of neighbours in the standing.
    """
    if sum(sizes) != len(players):
        raise SeatingError("the table sizes do not add up to the players")

    def cost(table) -> int:
        repeats = sum(met.get(pair(a, b), 0) for a, b in combinations(table, 2))
        spread = 0
        if ranks is not None:
            spread = max(ranks[p] for p in table) - min(ranks[p] for p in table)
        return REPEAT_COST * repeats + spread

    starts = []
    if ranks is not None:
        starts.append(sorted(players, key=lambda p: ranks[p]))
    while len(starts) < restarts:
        shuffled = list(players)
        rng.shuffle(shuffled)
        starts.append(shuffled)

    best, best_cost = None, math.inf
    for order in starts:
        tables = _cut(order, sizes)
        total = _improve(tables, cost, rng)
        if total < best_cost:
            best, best_cost = tables, total
        if best_cost < REPEAT_COST:  # nobody meets anyone again: good enough
            break
    for table in best:
        rng.shuffle(table)
    return best


def _cut(order: list[int], sizes: list[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _improve(tables: list[list[int]], cost, rng: random.Random) -> int:
    """Swap players between tables while a swap lowers the cost; return the final cost."""
    costs = [cost(table) for table in tables]
    pairs = [(a, b) for a in range(len(tables)) for b in range(a + 1, len(tables))]
    improved = True
    while improved:
        improved = False
        rng.shuffle(pairs)
        for a, b in pairs:
            ta, tb = tables[a], tables[b]
            for i in range(len(ta)):
                for j in range(len(tb)):
                    ta[i], tb[j] = tb[j], ta[i]
                    ca, cb = cost(ta), cost(tb)
                    if ca + cb < costs[a] + costs[b]:
                        costs[a], costs[b] = ca, cb
                        improved = True
                    else:
                        ta[i], tb[j] = tb[j], ta[i]
    return sum(costs)
