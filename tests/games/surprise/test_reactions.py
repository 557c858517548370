"""RULES §2.4 and §2.5 "Reactions": Négatif = Positif and the exchange after a take."""

import pytest

from games.engine import IllegalDecision
from games.surprise import engine as surprise

from .helpers import asked, decide, kinds, play, table

FULL = [[11, 12, 13, 14, 16], [20], [30], [40]]  # 9 heads: 11 is worth 5


def test_negatif_positif_removes_the_card_and_extras_within_its_heads():
    """RULES 2.4 (seed example): taking 11 (5 heads) also removes cards worth 5 heads."""
    state = table(FULL, [[17], [60]], [["negatif_positif"], []], piles=[[10, 20, 2, 4], []])
    state, events = play(state, 17, 60)
    assert asked(state) == (0, "negatif_positif")
    assert state.prompt[2] == (11, 12, 13, 14, 16)
    state, events = decide(state, "negatif_positif", card=11, extras=[10, 2, 4])
    assert {"type": "removed", "seat": 0, "card": 11, "extras": [2, 4, 10]} in events
    assert sorted(state.box) == [2, 4, 10, 11]
    assert sorted(state.piles[0]) == [12, 13, 14, 16, 20]
    assert state.specials[0] == () and state.discard == ("negatif_positif",)


def test_negatif_positif_extras_may_not_exceed_the_cards_heads():
    """RULES 2.5: extras whose heads together do not exceed the chosen card's."""
    state = table(FULL, [[17], [60]], [["negatif_positif"], []], piles=[[10, 20], []])
    state, _ = play(state, 17, 60)
    with pytest.raises(IllegalDecision):
        decide(state, "negatif_positif", card=11, extras=[10, 20])  # 6 heads > 5
    with pytest.raises(IllegalDecision):
        decide(state, "negatif_positif", card=12, extras=[10])  # 3 heads > 1
    decide(state, "negatif_positif", card=12, extras=[])


def test_negatif_positif_card_is_one_just_taken_by_this_take():
    """RULES 2.5: one of the number cards that take moved into the pile, never an older
    pile card nor the card that restarts the row."""
    state = table(FULL, [[17], [60]], [["negatif_positif"], []], piles=[[55], []])
    state, _ = play(state, 17, 60)
    for card in (55, 17):
        with pytest.raises(IllegalDecision):
            decide(state, "negatif_positif", card=card, extras=[])


def test_negatif_positif_may_choose_the_own_card_of_a_five_row_take():
    """RULES 2.5: the player's own card when a 5-row take took it."""
    state = table(
        [[11, 12, 13, 14, 16], [20], [30], [40], [90]], [[17], [95]], [["negatif_positif"], []]
    )
    state, _ = play(state, 17, 95)
    assert 17 in state.prompt[2]
    state, _ = decide(state, "negatif_positif", card=17, extras=[])
    assert state.box == (17,)


def test_negatif_positif_at_most_one_per_take():
    """RULES 2.5: at most one Négatif = Positif per take, even holding two."""
    state = table(FULL, [[17], [60]], [["negatif_positif"] * 2, []])
    state, _ = play(state, 17, 60)
    state, _ = decide(state, "negatif_positif", card=11, extras=[])
    assert asked(state) == (0, "exchange")  # then the exchange, not a second removal
    assert state.specials[0] == ("negatif_positif",)


def test_exchange_discards_the_special_and_draws_the_top_card():
    """RULES 2.4 and 2.5: discard one special of the hand and draw the top card."""
    state = table(FULL, [[17], [60]], [["stop"], []], draw=("glisser", "inserer"))
    state, _ = play(state, 17, 60)
    assert asked(state) == (0, "exchange")
    assert [d["special"] for d in surprise.legal(state, 0)] == [None, "stop"]
    state, events = decide(state, "exchange", special="stop")
    assert {"type": "exchanged", "seat": 0, "special": "stop"} in events
    assert state.specials[0] == ("glisser",)
    assert state.draw == ("inserer",) and state.discard == ("stop",)


def test_exchange_with_an_empty_draw_pile_shuffles_the_discard_first():
    """RULES 2.5: the discard pile becomes a new draw pile before the special is discarded."""
    state = table(FULL, [[17], [60]], [["stop"], []], draw=(), discard=("inserer", "glisser"))
    state, _ = play(state, 17, 60)
    state, events = decide(state, "exchange", special="stop")
    assert kinds(events)[:2] == ["reshuffled", "exchanged"]
    assert len(state.reshuffles) == 1 and sorted(state.reshuffles[0]) == ["glisser", "inserer"]
    assert state.discard == ("stop",)
    assert state.specials[0][0] in ("glisser", "inserer") and len(state.draw) == 1


def test_no_exchange_is_offered_when_both_piles_are_empty():
    """RULES 2.5: with both piles empty no exchange is offered."""
    state = table(FULL, [[17], [60]], [["stop"], []], draw=(), discard=())
    state, _ = play(state, 17, 60)
    assert state.prompt is None


def test_a_reaction_is_asked_only_of_a_player_who_can_make_it():
    """RULES 2.5: Négatif = Positif only when held; the exchange only with a special."""
    state = table(FULL, [[17], [60]])
    state, events = play(state, 17, 60)
    assert state.prompt is None and "asking" not in [e["type"] for e in events]
    state = table(FULL, [[17], [60]], [["glisser"], []])
    state, _ = play(state, 17, 60)
    assert asked(state) == (0, "exchange")


def test_reactions_come_in_order_removal_then_exchange():
    """RULES 2.4: Négatif = Positif first, then the exchange; both optional."""
    state = table(FULL, [[17], [60]], [["negatif_positif", "stop"], []])
    state, _ = play(state, 17, 60)
    assert asked(state) == (0, "negatif_positif")
    state, _ = decide(state, "negatif_positif", card=None)
    assert asked(state) == (0, "exchange")
    state, _ = decide(state, "exchange", special=None)
    assert state.prompt is None and state.rows[3] == (40, 60)


def test_the_exchanged_special_is_usable_from_the_next_selection():
    """RULES 2.5: the drawn special is usable from the next selection."""
    state = table(FULL, [[17, 50], [60, 70]], [["stop"], []], draw=("inserer",))
    state, _ = play(state, 17, 60)
    state, _ = decide(state, "exchange", special="stop")
    assert {"type": "select", "card": 50, "special": "inserer"} in surprise.legal(state, 0)


def test_every_take_opens_its_own_reaction_window_within_one_card():
    """RULES 2.5 "Order of a turn" 4: a Glisser's take and then its card's own take
    each open a reaction window; "just taken" means taken by that take."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40, 41, 42, 43, 44]]
    state = table(rows, [[45], [90]], [["glisser", "negatif_positif"], []])
    state, _ = play(state, (45, "glisser"), 90)
    state, _ = decide(state, "glisser", **{"from": [1, 0], "to": [0, 5]})
    assert asked(state) == (0, "negatif_positif") and state.prompt[2] == (1, 2, 3, 4, 6)
    state, _ = decide(state, "negatif_positif", card=None)
    state, _ = decide(state, "exchange", special=None)
    assert asked(state) == (0, "negatif_positif") and state.prompt[2] == (40, 41, 42, 43, 44)
    state, _ = decide(state, "negatif_positif", card=44, extras=[1, 2, 3, 4])
    assert sorted(state.box) == [1, 2, 3, 4, 44]


def test_reactions_follow_every_kind_of_take():
    """RULES 2.4: any take, any reason (a too-low card's too)."""
    state = table([[10], [20], [30], [40]], [[5], [60]], [["negatif_positif"], []])
    state, _ = play(state, 5, 60)
    state, _ = decide(state, "row", row=2)
    assert asked(state) == (0, "negatif_positif") and state.prompt[2] == (30,)
