"""RULES §1.4 as §2.3 and §2.5 extend it: one encoding of the placing rule, shared by
6 qui prend ! and 6 qui surprend (games/nimmt/engine/placing.py)."""

import random

from games.nimmt.engine import core, placing, rules
from games.surprise.engine import rules as surprise_rules


def test_both_engines_place_with_the_shared_rule():
    """Issue 22: heads and placing are shared with nimmt, not copied."""
    assert core.target_row is placing.target_row is rules.target_row
    assert surprise_rules.target_row_any is placing.target_row_any


def test_the_unrolled_four_row_rule_is_the_general_rule():
    """RULES 1.4: nimmt's fast path and the general rule agree on four plain rows."""
    rng = random.Random(5)
    for _ in range(3000):
        cards = rng.sample(range(1, 105), 9)
        rows = [[card] for card in cards[:4]]
        for card in cards[4:]:
            assert placing.target_row(rows, card) == placing.target_row_any(rows, card)


def test_stopped_rows_are_skipped_and_empty_rows_end_in_zero():
    """RULES 2.3 and 2.5: placement ignores stopped rows; an empty row ends in 0, the
    first in table order on a tie, at the largest difference."""
    rows = [[12], [37], [43], [58]]
    assert placing.target_row_any(rows, 44) == 2  # seed 000's example
    assert placing.target_row_any(rows, 44, stopped=[2]) == 1
    assert placing.target_row_any(rows, 20, stopped=[0]) == -1
    assert placing.target_row_any([[12], [], [43], []], 5) == 1
    assert placing.target_row_any([[12], [], [43], []], 20) == 0
    assert placing.target_row_any([[12], [], [43], []], 5, stopped=[1]) == 3
