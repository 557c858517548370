"""What a seat can work out about the cards from its own view (RULES §1.1, §1.7)."""

from games.nimmt.engine import deck
from games.nimmt.engine.core import row_heads, target_row


def cards_in_play(view: dict) -> tuple[int, ...]:
    """The cards used this round: 1..10×players+4 with `card_limit` (RULES §1.7), else 1..104."""
    return deck(view["players"], bool(view["options"].get("card_limit")))


def known_hands(view: dict) -> dict[int, list[int]]:
    """Other seats' remaining hands, when the public draft picks reveal them (RULES §1.7).

    Every card a seat drafted is in its hand until it shows up among this round's seen
    cards; so once the draft is over, each remaining hand is its picks minus the seen cards.
    """
    draft = view.get("draft")
    if not draft or view["phase"] == "draft":
        return {}
    seen = set(view.get("seen") or ())
    hands: dict[int, list[int]] = {}
    for seat, card in draft.get("picks", ()):
        hands.setdefault(seat, [])
        if card not in seen:
            hands[seat].append(card)
    hands.pop(view["seat"], None)
    return {seat: sorted(cards) for seat, cards in hands.items()}


def unseen_cards(view: dict) -> list[int]:
    """Cards in play that this seat has not seen this round: not in its hand, not on the
    rows, not revealed. Other hands (and, without `card_limit`, the unused rest of the
    deck) are made of exactly these."""
    known = set(view.get("seen") or ())
    known.update(view.get("hand") or ())
    for row in view["rows"]:
        known.update(row)
    for card in view.get("revealed") or ():
        if card is not None:
            known.add(card)
    return [card for card in cards_in_play(view) if card not in known]


__all__ = ["cards_in_play", "known_hands", "row_heads", "target_row", "unseen_cards"]
