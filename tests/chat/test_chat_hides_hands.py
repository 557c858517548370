"""Chat frames carry nothing of a hand (RULES 1.3; tests/games/test_hidden_information.py).

Two players chat while they play a whole round, a spectator chats too; every frame each
socket gets is kept. A chat frame holds chat lines only: no card a frame could show (a
card face, a button's card, a numeric attribute), no section of the table. What the
spectator writes reaches both players as the very same frame: nothing of the reader's seat
is rendered into it.
"""

import random
import re

import pytest

from games import engine
from tests.chat.helpers import chat_texts, say
from tests.games import ws
from tests.games.test_hidden_information import cards_shown
from tests.games.ws import game_state, make, setup_table

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")

CHAT_FRAME = re.compile(r'^<(ol hx-swap-oob="beforeend:#chat-log"|div id="chat-notice")')
SENDER = re.compile(r'\sdata-sender="\d+"')


async def test_chat_frames_carry_nothing_of_a_hand(make_player, no_rate_limit, settings):
    settings.SIXCLUB_CHAT_RATE = (1000, 100000)
    alice, bob, carol = [await make(make_player, name) for name in ("alice", "bob", "carol")]
    table = await setup_table(alice, [bob], options={"end": "rounds", "rounds": 1})
    players = {0: await ws.connect(f"/ws/tables/{table.pk}/", alice)}
    players[1] = await ws.connect(f"/ws/tables/{table.pk}/", bob)
    spectator = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    sockets = [*players.values(), spectator]
    rng = random.Random("chat-1.3")
    state = await game_state(table)
    turn = 0
    while not nimmt.is_over(state):
        seat = rng.choice(nimmt.to_act(state))
        decision = rng.choice(nimmt.legal(state, seat))
        await ws.send(players[seat], version=state.version, **decision)
        await say(players[seat], canned=rng.choice(["ouch", "well_played", "thanks"]))
        await say(players[seat], text=f"tour {turn}, carte {decision.get('card', '?')}")
        await say(spectator, text=f"je regarde le tour {turn}")
        turn += 1
        for socket in sockets:
            await ws.drain(socket, timeout=0.05)
        state = await game_state(table)
    for socket in sockets:
        # Long enough for the last turn's messages to reach every socket on a busy machine.
        await ws.drain(socket, timeout=1.0)
        await socket.disconnect()

    chat_frames = {
        who: [frame for frame in socket.frames if CHAT_FRAME.match(frame)]
        for who, socket in (("alice", players[0]), ("bob", players[1]), ("carol", spectator))
    }
    assert all(len(frames) > 3 * turn for frames in chat_frames.values()), "too little chat"
    for who, frames in chat_frames.items():
        for frame in frames:
            assert 'id="hand"' not in frame and 'id="players"' not in frame, (who, frame)
            assert "cardbtn" not in frame and '"card"' not in frame, (who, frame)
            assert not cards_shown(SENDER.sub("", frame)), (who, frame)

    def from_spectator(frames):
        return [f for f in frames if "je regarde" in "".join(chat_texts([f]))]

    to_alice, to_bob = from_spectator(chat_frames["alice"]), from_spectator(chat_frames["bob"])
    assert len(to_alice) == turn and to_alice == to_bob
