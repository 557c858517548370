"""The balanced deal (RULES §3.4, §3.5): every deal it draws is valid, every valid deal is
equally likely, and it is fast. The checks of validity here do not use the engine's own."""

import itertools
import math
import time
from collections import Counter

import pytest

from games.six import engine as six
from games.six.engine.cards import RANKS, parts
from games.six.engine.dealing import Stream, balanced_deal, hand_key

from .helpers import finished_game

DRAWS = 100_000


def neighbours(deck):
    """RULES 3.5: 1–2 … 6–7, 7–sota (40) or 7–8, 8–9, 9–sota (48) … caballo–rey."""
    ranks = RANKS[deck]
    return set(itertools.pairwise(ranks))


def is_balanced(hands, ranks):
    """RULES 3.4, checked from scratch: one card of each rank per seat, no neighbours."""
    pairs = set(itertools.pairwise(ranks))
    if len(hands) != 4:
        return False
    for hand in hands:
        held = [parts(card) for card in hand]
        if sorted(rank for _, rank in held) != sorted(ranks):
            return False
        for (suit_a, rank_a), (suit_b, rank_b) in itertools.combinations(held, 2):
            if suit_a == suit_b and ((rank_a, rank_b) in pairs or (rank_b, rank_a) in pairs):
                return False
    return True


@pytest.mark.parametrize("deck", [40, 48])
def test_every_balanced_deal_satisfies_3_4(deck):  # RULES 3.4
    for seed in range(3000):
        hands = balanced_deal(Stream(hand_key(seed, 1)), RANKS[deck])
        assert is_balanced(hands, RANKS[deck])
        assert sorted(card for hand in hands for card in hand) == sorted(six.deck(deck))


@pytest.mark.parametrize("deck", [40, 48])
def test_every_hand_of_a_balanced_game_is_balanced(deck):  # RULES 3.5
    state = finished_game(players=4, options={"balanced": True, "deck": deck, "target": 60}, seed=3)
    assert len(state.history) >= 3
    for hands, _ in state.history:
        assert is_balanced(hands, RANKS[deck])


def test_rey_and_1_are_not_neighbours():  # RULES 3.5
    assert (12, 1) not in neighbours(40) and (1, 12) not in neighbours(40)
    assert (7, 10) in neighbours(40) and (7, 10) not in neighbours(48)
    assert {(7, 8), (8, 9), (9, 10)} <= neighbours(48)


def assignment(hands, rank):
    """The suit each seat got at `rank`: a tuple of 4 suit indices."""
    suits = []
    for hand in hands:
        (suit,) = [parts(card)[0] for card in hand if parts(card)[1] == rank]
        suits.append(suit)
    return tuple(suits)


PERMUTATIONS = list(itertools.permutations(range(4)))


def follows(before, after):
    """An assignment may follow another at the next rank: no seat keeps its suit."""
    return all(a != b for a, b in zip(before, after, strict=True))


def test_every_assignment_has_exactly_9_followers():  # RULES 3.5
    for before in PERMUTATIONS:
        assert sum(follows(before, after) for after in PERMUTATIONS) == 9


def all_valid_deals(ranks):
    """Every balanced deal of a deck of `ranks`, found by brute force over all deals in which
    each seat holds one card of each rank."""
    deals = set()
    for assignments in itertools.product(PERMUTATIONS, repeat=len(ranks)):
        pairs = list(zip(ranks, assignments, strict=True))
        hands = [sorted(f"{rank}-{six.SUITS[a[seat]]}" for rank, a in pairs) for seat in range(4)]
        if is_balanced(hands, ranks):
            deals.add(tuple(tuple(hand) for hand in hands))
    return deals


def chi2_sf(statistic, df):
    """P(X ≥ statistic) for X chi-square with `df` degrees of freedom: the regularized upper
    incomplete gamma Q(df/2, statistic/2) (series below a+1, continued fraction above)."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = 0
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / (a + n)
            total += term
        return 1 - total * math.exp(log_front)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def test_chi2_sf_matches_known_quantiles():
    assert chi2_sf(6.6349, 1) == pytest.approx(0.01, abs=1e-4)
    assert chi2_sf(2.7055, 1) == pytest.approx(0.10, abs=1e-4)
    assert chi2_sf(23.2093, 10) == pytest.approx(0.01, abs=1e-4)
    assert chi2_sf(124.342, 100) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(2081.6, 1943) == pytest.approx(0.0137, abs=2e-3)  # normal approximation


def chi2_statistic(observed, expected):
    return sum((observed.get(cell, 0) - count) ** 2 / count for cell, count in expected.items())


def test_all_deals_of_a_3_rank_deck_are_equally_likely():  # RULES 3.4, 3.5
    ranks = (5, 6, 7)
    valid = all_valid_deals(ranks)
    assert len(valid) == 24 * 9**2  # RULES 3.5: 24 × 9^(ranks − 1)
    observed = Counter()
    for seed in range(DRAWS):
        hands = balanced_deal(Stream(hand_key(seed, 1)), ranks)
        observed[tuple(tuple(sorted(hand)) for hand in hands)] += 1
    assert set(observed) <= valid
    expected = dict.fromkeys(valid, DRAWS / len(valid))
    p = chi2_sf(chi2_statistic(observed, expected), len(valid) - 1)
    print(f"p = {p:.4f}")
    assert p > 0.01, f"uniformity rejected at 1 % (p = {p:.4f})"


def test_suit_assignments_at_the_first_and_last_rank_follow_their_exact_law():
    # RULES 3.5: uniform among valid deals, so the assignment is a Markov chain over the
    # 24 permutations, uniform at the first rank, each step uniform among the 9 followers.
    # The joint law of (first, last) of the 10 ranks is (1/24) · P⁹, P the step matrix.
    step = [[(1 / 9 if follows(a, b) else 0.0) for b in PERMUTATIONS] for a in PERMUTATIONS]
    power = [[float(i == j) for j in range(24)] for i in range(24)]
    for _ in range(len(RANKS[40]) - 1):
        power = [
            [sum(power[i][k] * step[k][j] for k in range(24)) for j in range(24)] for i in range(24)
        ]
    expected = {
        (PERMUTATIONS[i], PERMUTATIONS[j]): DRAWS * power[i][j] / 24
        for i in range(24)
        for j in range(24)
    }
    assert sum(expected.values()) == pytest.approx(DRAWS)
    observed = Counter()
    for seed in range(DRAWS):
        hands = balanced_deal(Stream(hand_key(seed, 2)), RANKS[40])
        observed[assignment(hands, 1), assignment(hands, 12)] += 1
    assert set(observed) <= set(expected)
    p = chi2_sf(chi2_statistic(observed, expected), len(expected) - 1)
    print(f"p = {p:.4f}")
    assert p > 0.01, f"uniformity rejected at 1 % (p = {p:.4f})"


def test_the_balanced_deal_rejects_no_whole_deal():  # RULES 3.5: drawn directly
    for seed in range(1000):
        stream = Stream(hand_key(seed, 1))
        balanced_deal(stream, RANKS[48])
        assert stream.used == len(RANKS[48])  # one choice per rank, nothing drawn again


def test_a_choice_skips_the_words_that_would_favour_some_values():
    stream = Stream("any")
    stream.words = (2**64 - 1, 2**64 - 2, 7)
    # 2**64 = 1 (mod 3): 2**64 - 1 is the one word past the last whole cycle of 3 values,
    # skipped; 2**64 - 2 is used.
    assert stream.below(3) == (2**64 - 2) % 3
    assert stream.used == 2
    assert stream.below(3) == 1 and stream.used == 3
    assert stream.below(5) in range(5)  # past the end: the stream is read further


def test_balanced_deal_draws_at_least_10000_deals_per_second():  # issue 23
    best = 0
    for _ in range(3):
        start = time.perf_counter()
        for seed in range(5000):
            balanced_deal(Stream(hand_key(seed, 1)), RANKS[48])
        best = max(best, 5000 / (time.perf_counter() - start))
    assert best >= 10_000, f"{best:.0f} deals/s"
