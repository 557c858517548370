"""Tables set up for one rule at a time, played through the public `apply`."""

from games.surprise import engine as surprise


def table(
    rows,
    hands,
    specials=None,
    *,
    stops=None,
    caps=None,
    draw=("stop", "glisser", "inserer"),
    discard=(),
    piles=None,
    live=True,
):
    """A game at the start of a turn with exactly these rows, hands and specials.

    Only the fields a turn reads are set; the rest are those of a fresh game.
    """
    players = len(hands)
    state = surprise.new_game(players=players, options={"live_scores": live}, seed=1)
    s = state.copy()
    s.rows = tuple(tuple(row) for row in rows)
    s.stops = tuple(map(bool, stops)) if stops is not None else (False,) * len(rows)
    s.caps = tuple(map(bool, caps)) if caps is not None else (False,) * len(rows)
    s.hands = tuple(tuple(sorted(hand)) for hand in hands)
    s.specials = tuple(tuple(sorted(own)) for own in (specials or [()] * players))
    s.draw = tuple(draw)
    s.discard = tuple(discard)
    s.piles = tuple(tuple(pile) for pile in (piles or [()] * players))
    s.start_rows = s.rows
    s.start_hands = s.hands
    return s


def play(state, *picks):
    """Every seat selects, in seat order: a card, or (card, special). Returns the state
    and all the events."""
    events = []
    for seat, pick in enumerate(picks):
        card, special = pick if isinstance(pick, tuple) else (pick, None)
        state, produced = surprise.apply(
            state, seat, {"type": "select", "card": card, "special": special}
        )
        events += produced
    return state, events


def decide(state, type_, **fields):
    """The awaited seat's decision."""
    (seat,) = surprise.to_act(state)
    return surprise.apply(state, seat, {"type": type_, **fields})


def kinds(events):
    return [event["type"] for event in events if event["type"] != "asking"]


def asked(state):
    """(seat, kind) of the awaited resolution decision, or None."""
    return None if state.prompt is None else state.prompt[:2]
