"""No frame ever shows anyone another seat's hand or unrevealed selection (RULES 1.3).

Every seat and a spectator keep every frame the table sends them over a whole game. Each
frame carries the version it was rendered at; the stored state at that version (read
from `Game.state` through the engine) says which cards each seat holds and which it has
selected. The check is on the wire, not on the view: whatever a template or a future
panel adds, a secret card number in a card face, a button's values, a numeric attribute
or a "chosen" mark is found.
"""

import random
import re

import pytest

from games import engine
from tests.games import ws
from tests.games.ws import game_state, make, setup_table

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")

# Where a frame can show a card number: a card face, the values a button sends, any other
# attribute whose whole value is a number. Only the version and seat positions are not cards.
CARD_FACE = re.compile(r"<b>(\d+)</b>")
SENT_CARD = re.compile(r'"card":\s*"?(\d+)')
NUMERIC_ATTRIBUTE = re.compile(r'([\w:-]+)="(\d+)"')
# A reveal step is a place in the animation (static/js/live.js), not a card.
NOT_A_CARD = {"data-version", "data-seat", "data-me", "data-round", "data-row", "data-heads"}
NOT_A_CARD |= {"data-reveal-step", "data-reveal-ms"}
BUTTON = re.compile(r"<button\b[^>]*>", flags=re.DOTALL)


def section(frame: str, element_id: str) -> str:
    match = re.search(
        rf'<section[^>]*\bid="{element_id}"[^>]*>.*?</section>', frame, flags=re.DOTALL
    )
    return match.group(0) if match else ""


def frame_version(frame: str) -> int | None:
    """The version a frame shows: its live part's (or its players' section's, within a
    decision point), or the one an acknowledgement names."""
    match = re.search(r'id="(?:live|players|hand|ack)"[^>]*?data-version="(\d*)"', frame)
    # Version 0 is rendered as an empty attribute.
    return int(match.group(1) or 0) if match else None


def cards_shown(html: str) -> set[int]:
    cards = {int(number) for number in CARD_FACE.findall(html)}
    cards |= {int(number) for number in SENT_CARD.findall(html)}
    cards |= {
        int(value) for name, value in NUMERIC_ATTRIBUTE.findall(html) if name not in NOT_A_CARD
    }
    return cards


def cards_marked_chosen(html: str) -> set[int]:
    """Cards of buttons marked as the selection (pressed, or styled as chosen)."""
    chosen = set()
    for button in BUTTON.findall(html):
        if 'aria-pressed="true"' in button or re.search(r'class="[^"]*\bchosen\b', button):
            chosen |= cards_shown(button)
    return chosen


def leaks(frame: str, receiver: int | None, state, *, hands_public: bool) -> list[str]:
    """Everything in `frame` that `receiver` (None: a spectator) must not see.

    `hands_public`: in a draft the picks are made face up (RULES 1.7), so the cards in
    other hands are known; what each seat selects stays secret until the reveal.
    """
    problems = []
    others = [seat for seat in range(state.players) if seat != receiver]
    selecting = state.phase == "select"
    own_hand = set(state.hands[receiver]) if receiver is not None else set()
    own_selection = state.selections[receiver] if receiver is not None and selecting else 0

    hand = section(frame, "hand")
    if receiver is None and hand:
        problems.append("a spectator got a hand")
    if cards_shown(hand) - own_hand:
        problems.append(f"#hand shows cards not in the hand: {cards_shown(hand) - own_hand}")

    chosen = cards_marked_chosen(frame)
    expected = {own_selection} if own_selection else set()
    # Only the own selection may be marked, and a frame with the hand must mark it.
    if chosen - expected or (hand and chosen != expected):
        problems.append(f"cards marked as chosen: {chosen}, own selection: {expected}")

    secrets = {}
    for seat in others:
        if selecting and state.selections[seat]:
            secrets[state.selections[seat]] = f"seat {seat}'s unrevealed selection"
        if not hands_public:
            for card in state.hands[seat]:
                secrets.setdefault(card, f"a card in seat {seat}'s hand")
    for card in sorted(cards_shown(frame) & set(secrets)):
        problems.append(f"card {card} is shown: {secrets[card]}")
    return problems


async def receive_version(communicator, version):
    """Frames until one shows `version` (each change reaches every socket once)."""
    frames = []
    while True:
        frame = await ws.receive(communicator)
        frames.append(frame)
        if frame_version(frame) == version:
            return frames


async def play_recording_every_frame(table, players, watchers, rng):
    """Humans make random legal decisions until the game is over.

    Returns every frame each watcher received and the stored state at every version.
    Now and then a seat that has selected changes its mind (allowed until the reveal).
    """
    state = await game_state(table)
    states = {state.version: state}
    for communicator in watchers.values():
        await receive_version(communicator, state.version)
    sent = 0
    while not nimmt.is_over(state):
        waiting = [seat for seat in nimmt.to_act(state) if seat in players]
        assert waiting, f"nothing awaited from the humans at {state!r}"
        seat = rng.choice(waiting)
        if state.phase == "select" and rng.random() < 0.15:
            changing = [s for s in players if state.selections[s]]
            seat = rng.choice(changing) if changing else seat
        decision = rng.choice(nimmt.legal(state, seat))
        sent += 1
        request = f"r-{sent}"
        await ws.send(players[seat], id=request, version=state.version, **decision)
        while True:
            frame = await ws.receive(players[seat])
            assert 'data-code=""' in frame or 'id="notice"' not in frame, frame
            if f'data-request="{request}"' in frame:
                break
        state = await game_state(table)
        assert frame_version(frame) == state.version
        states[state.version] = state
        for communicator in watchers.values():
            await receive_version(communicator, state.version)
    for communicator in watchers.values():
        await ws.drain(communicator, timeout=0.1)
        await communicator.disconnect()
    return {who: communicator.frames for who, communicator in watchers.items()}, states


GAMES = {
    # Random deal, the played-cards panel on: cards in other hands are secret too.
    "random deal": ({"end": "rounds", "rounds": 1}, {"show_played": True}),
    # Draft (RULES 1.7): hands are public by the picks, selections are still secret.
    "draft": ({"end": "rounds", "rounds": 1, "deal": "draft"}, {}),
}


@pytest.mark.parametrize("game", list(GAMES))
async def test_no_frame_shows_another_seats_hand_or_selection(make_player, no_rate_limit, game):
    # RULES 1.3: "Nobody else learns the choice, not even that a particular card was chosen".
    options, table_options = GAMES[game]
    alice, bob, carol, dave = [
        await make(make_player, name) for name in ("alice", "bob", "carol", "dave")
    ]
    table = await setup_table(alice, [bob, carol], ["heuristic"], options=options, **table_options)
    humans = {0: alice, 1: bob, 2: carol}
    watchers = {
        seat: await ws.connect(f"/ws/tables/{table.pk}/", user) for seat, user in humans.items()
    }
    watchers[None] = await ws.connect(f"/ws/tables/{table.pk}/", dave)
    assert all(communicator.connected for communicator in watchers.values())
    players = {seat: watchers[seat] for seat in humans}

    frames, states = await play_recording_every_frame(
        table, players, watchers, random.Random(f"{game}-1.3")
    )

    hands_public = options.get("deal") == "draft"
    problems = []
    secret_moments = dict.fromkeys(watchers, 0)
    own_marks = dict.fromkeys(humans, 0)
    for receiver, received in frames.items():
        for frame in received:
            version = frame_version(frame)
            assert version in states, f"a frame at an unknown version {version}: {frame[:200]}"
            state = states[version]
            problems += [
                f"{game}, to {receiver}, v{version}: {problem}"
                for problem in leaks(frame, receiver, state, hands_public=hands_public)
            ]
            if 'id="players"' in frame and state.phase == "select":
                others = [s for s in range(state.players) if s != receiver]
                secret_moments[receiver] += any(state.selections[s] for s in others)
                if receiver is not None and state.selections[receiver]:
                    own_marks[receiver] += 'aria-pressed="true"' in section(frame, "hand")
    assert not problems, "\n".join(problems[:20])

    # The check saw what it guards: frames sent while others' selections were secret, and
    # each player's own selection marked on their own screen.
    assert all(count >= 10 for count in secret_moments.values()), secret_moments
    # (A seat's hand is sent again when its own selection changes, so a seat that often
    # selects last, which reveals the turn, sees its selection marked less often.)
    assert all(count >= 1 for count in own_marks.values()), own_marks
    assert sum(own_marks.values()) >= 10, own_marks

    # And it can fail: a player's frame, had it gone to a neighbour or the spectator.
    frame = next(
        f
        for f in frames[0]
        if 'aria-pressed="true"' in f and states[frame_version(f)].phase == "select"
    )
    state = states[frame_version(frame)]
    for stranger in (1, None):
        found = leaks(frame, stranger, state, hands_public=hands_public)
        assert any("unrevealed selection" in problem for problem in found), found
        assert any("chosen" in problem for problem in found), found
        if not hands_public:
            assert any("seat 0's hand" in problem for problem in found), found
