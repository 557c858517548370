"""Placing a card (RULES §1.4): the one encoding of the rule, shared by every engine.

6 qui prend ! (`nimmt`) and 6 qui surprend (`surprise`) both find a card's row here.
6 qui surprend extends the rule (RULES §2.3, §2.5): a stopped row is skipped, and an empty
row counts as ending in 0, so any card qualifies for it at the largest difference, the
first empty row in table order winning a tie. `target_row_any` is that general rule;
`target_row` is the same rule unrolled for the four non-empty, unstopped rows of a
6 qui prend ! table, because it runs for every card of every bot rollout.
"""

ROW_COUNT = 4  # RULES 1.2


def target_row(rows, card):
    """Index of the row `card` goes to, or -1 when it is too low for every row (§1.4).

    The row is the one whose last card is the highest card still lower than `card`.
    `rows` are non-empty sequences of cards; none is stopped (6 qui prend !).
    """
    if len(rows) != ROW_COUNT:
        return target_row_any(rows, card)
    # Unrolled for the four rows of RULES 1.2: this runs for every card of every rollout.
    row0, row1, row2, row3 = rows
    best = -1
    best_last = 0
    last = row0[-1]
    if last < card:
        best = 0
        best_last = last
    last = row1[-1]
    if best_last < last < card:
        best = 1
        best_last = last
    last = row2[-1]
    if best_last < last < card:
        best = 2
        best_last = last
    last = row3[-1]
    if best_last < last < card:
        best = 3
    return best


def target_row_any(rows, card, stopped=()):
    """`target_row` for any number of rows, some maybe empty or stopped (RULES §2.5).

    Rows whose index is in `stopped` receive no card and are skipped. An empty row ends
    in 0: any card qualifies for it, and the first empty row in table order is taken
    when no row ends closer below the card. -1 when the card is too low for every
    row it may go to.
    """
    best = -1
    best_last = -1
    for index, row in enumerate(rows):
        if index in stopped:
            continue
        last = row[-1] if row else 0
        if best_last < last < card:
            best = index
            best_last = last
    return best
