import re
import time

import pytest
from asgiref.sync import sync_to_async

from games import clock, engine, services
from games.models import Decision, Game, Table
from tests.games import ws
from tests.games.ws import ack_version, error_code, game_state, make, setup_table

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")


async def test_an_anonymous_socket_is_refused_at_a_table(alice):
    table = await setup_table(alice, bots=["random"])
    communicator = await ws.connect(f"/ws/tables/{table.pk}/")
    # Accepted, then closed at once with the reason's code (docs/protocol.md).
    assert communicator.connected
    assert await communicator.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}


async def test_a_private_table_is_hidden_from_strangers(alice, make_player):
    table = await setup_table(alice, bots=["random"], is_public=False)
    carol = await make(make_player, "carol")
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    assert communicator.connected
    assert await communicator.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}


async def test_a_missing_table_closes_with_4404(alice):
    communicator = await ws.connect("/ws/tables/999999/", alice)
    assert communicator.connected
    assert await communicator.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}


async def test_two_players_and_a_bot_play_a_whole_round_over_websockets(alice, bob, no_rate_limit):
    table = await setup_table(alice, others=[bob], bots=["heuristic"])
    sockets = {
        0: await ws.connect(f"/ws/tables/{table.pk}/", alice),
        1: await ws.connect(f"/ws/tables/{table.pk}/", bob),
    }
    for communicator in sockets.values():
        first = await ws.receive(communicator)
        assert 'id="live"' in first
    for _ in range(200):
        state = await game_state(table)
        if nimmt.is_over(state):
            break
        seat = next(s for s in nimmt.to_act(state) if s in sockets)
        decision = nimmt.legal(state, seat)[0]
        await ws.send(sockets[seat], id=f"m{state.version}", version=state.version, **decision)
        frame = await ws.receive(sockets[seat])
        while ack_version(frame) is None:
            assert error_code(frame) is None, frame
            frame = await ws.receive(sockets[seat])
    else:
        raise AssertionError("the round did not end")
    for communicator in sockets.values():
        frames = await ws.drain(communicator)
        assert "Final ranking" in (frames[-1] if frames else communicator.frames[-1])
        await communicator.disconnect()
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).status == "finished"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "select"}', "bad_field"),
        ('{"type": "select", "card": "x"}', "bad_field"),
        ('{"type": "select", "card": true}', "bad_field"),
        ('{"type": "select", "card": 999}', "illegal"),
        ('{"type": "row", "row": 1}', "illegal"),
        ('{"type": "pick", "card": 5}', "illegal"),
        ('{"type": "select", "card": 1, "id": 12}', "bad_field"),
        ('{"type": "select", "card": 1, "pad": "' + "x" * 70000 + '"}', "too_big"),
    ],
)
async def test_a_bad_message_gets_a_clear_error_and_changes_nothing(alice, bob, raw, code):
    table = await setup_table(alice, others=[bob])
    before = await game_state(table)
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", alice)
    await ws.receive(communicator)
    await communicator.send_to(text_data=raw)
    frame = await ws.receive(communicator)
    assert error_code(frame) == code
    after = await game_state(table)
    assert nimmt.dump(after) == nimmt.dump(before)
    # The socket still serves its player after the error.
    await ws.send(communicator, type="sync")
    assert 'id="live"' in await ws.receive(communicator)
    await communicator.disconnect()


async def test_a_spectator_cannot_act(alice, bob, make_player):
    table = await setup_table(alice, others=[bob])
    carol = await make(make_player, "carol")
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    assert communicator.connected
    await ws.receive(communicator)
    hand = (await game_state(table)).hands[0]
    await ws.send(communicator, type="select", card=hand[0])
    assert error_code(await ws.receive(communicator)) == "not_seated"
    assert await sync_to_async(Decision.objects.count)() == 0
    await communicator.disconnect()


async def test_everyone_sees_who_has_chosen_as_it_happens(alice, bob, make_player):
    table = await setup_table(alice, others=[bob])
    carol = await make(make_player, "carol")
    watcher = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    await ws.receive(watcher)
    player = await ws.connect(f"/ws/tables/{table.pk}/", alice)
    await ws.receive(player)
    hand = (await game_state(table)).hands[0]
    await ws.send(player, type="select", card=hand[3])
    frame = await ws.receive(watcher)
    assert frame.count("✓") == 1
    await player.disconnect()
    await watcher.disconnect()


async def test_the_clock_plays_the_fallback_when_time_runs_out(alice, bob):
    table = await setup_table(alice, others=[bob], time_limit=15)
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", alice)
    await ws.receive(communicator)
    game = await sync_to_async(Game.objects.get)(table=table)
    assert game.deadline is not None
    state = await game_state(table)
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(deadline=game.started_at)
    assert await sync_to_async(clock.tick)() == 1
    # RULES 1.8: both players' lowest cards were played for them, once.
    decisions = await sync_to_async(list)(Decision.objects.order_by("seq"))
    assert [(d.seat, d.payload["card"], d.source) for d in decisions] == [
        (0, state.hands[0][0], "timeout"),
        (1, state.hands[1][0], "timeout"),
    ]
    assert await sync_to_async(clock.tick)() == 0
    frame = await ws.receive(communicator)
    assert 'id="live"' in frame
    await communicator.disconnect()


async def test_a_flood_is_throttled_for_its_sender_only(alice, bob, settings):
    settings.SIXCLUB_WS_RATE = burst, per_minute = (10, 100)
    table = await setup_table(alice, others=[bob])
    flooder, other = await ws.watching(table, alice, bob)
    started = time.time()
    for _ in range(30):
        await ws.send(flooder, type="sync")
    # Quiet for 2 s: on a busy machine the answers to 30 messages may come with gaps.
    frames = await ws.drain(flooder, timeout=2)
    # games.limits: at most `burst` per window of burst * 60 / per_minute seconds; with
    # Redis the windows are fixed, so a flood that crosses k boundaries gets k + 1 allowances.
    windows = int((time.time() - started) // (burst * 60 / per_minute)) + 2
    answered = sum('id="live"' in frame for frame in frames)
    codes = [error_code(frame) for frame in frames]
    assert answered <= burst * windows
    assert codes.count("rate_limited") == 30 - answered
    # Bob is not slowed down by Alice's flood.
    hand = (await game_state(table)).hands[1]
    await ws.send(other, type="select", card=hand[0], id="b1")
    frames = await ws.drain(other)
    assert any(ack_version(frame) for frame in frames)
    await flooder.disconnect()
    await other.disconnect()


async def test_logging_out_closes_the_sessions_sockets(alice, bob):
    from django.test import Client

    table = await setup_table(alice, others=[bob])
    cookie = await ws.session_cookie(alice)
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", session=cookie)
    assert communicator.connected
    assert 'id="live"' in await ws.receive(communicator)

    @sync_to_async
    def log_out():
        client = Client()
        client.cookies["sessionid"] = cookie
        client.post("/accounts/logout/")

    await log_out()
    assert await communicator.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}


async def test_an_expired_session_closes_its_socket_at_the_next_check(alice, bob, monkeypatch):
    # Issue 6, "Hardening": a session that expires (or that an admin deletes) stops
    # speaking for its user; the socket opened with it is closed at its next message once
    # the check is due, and that message changes nothing.
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from games import consumers

    monkeypatch.setattr(consumers, "SESSION_CHECK_SECONDS", 0)  # due at every message
    table = await setup_table(alice, others=[bob])
    cookie = await ws.session_cookie(alice)
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", session=cookie)
    assert communicator.connected
    assert 'id="live"' in await ws.receive(communicator)
    hand = (await game_state(table)).hands[0]

    # Alive: checked, and the selection goes through.
    await ws.send(communicator, type="select", card=hand[0], id="a1", version=0)
    assert ack_version(await communicator.receive_from()) == 1

    await sync_to_async(Session.objects.filter(session_key=cookie).update)(
        expire_date=timezone.now() - timezone.timedelta(seconds=1)
    )
    await ws.send(communicator, type="select", card=hand[1], id="a2", version=1)
    output = await communicator.receive_output(timeout=3)
    while output["type"] == "websocket.send":  # a frame of the first selection
        output = await communicator.receive_output(timeout=3)
    assert output == {"type": "websocket.close", "code": 4401}
    assert (await game_state(table)).selections[0] == hand[0]
    assert (await sync_to_async(Game.objects.get)(table=table)).version == 1
    assert await sync_to_async(Decision.objects.filter(game__table=table).count)() == 1


async def test_within_a_turn_the_others_get_only_the_players_section(alice, bob, make_player):
    # docs/protocol.md, "Server → client": a selection moves no decision point, so the
    # other seats are sent who has chosen, not their whole screen again.
    carol = await make(make_player, "carol")
    table = await setup_table(alice, others=[bob, carol])
    sockets = [await ws.connect(f"/ws/tables/{table.pk}/", user) for user in (alice, bob, carol)]
    for communicator in sockets:
        assert 'id="live"' in await ws.receive(communicator)
    state = await game_state(table)

    await ws.send(sockets[0], type="select", card=state.hands[0][2], id="a1", version=0)
    assert ack_version(await ws.receive(sockets[0])) == 1
    own = await ws.receive(sockets[0])
    assert own.startswith('<section id="players" data-version="1"')
    assert 'id="live"' not in own and own.count("✓") == 1
    assert re.search(rf'"card": {state.hands[0][2]},[^>]*aria-pressed="true"', own)
    for other in sockets[1:]:
        frame = await ws.receive(other)
        assert frame.startswith('<section id="players" data-version="1"')
        assert frame.count("✓") == 1
        assert 'id="hand"' not in frame and 'id="live"' not in frame

    # The last selection reveals the turn: a whole screen for everyone.
    await ws.send(sockets[1], type="select", card=state.hands[1][0], id="b1", version=0)
    await ws.send(sockets[2], type="select", card=state.hands[2][0], id="c1", version=0)
    for communicator in sockets:
        frames = await ws.drain(communicator)
        whole = [frame for frame in frames if 'id="live"' in frame]
        assert whole, frames
        assert ws.live_version(whole[-1]) >= 3
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_player_who_leaves_after_choosing_shows_as_away(alice, bob):
    # Leaving after choosing moves no version (nothing is left for the fallback to play
    # this turn); the others' screens must still show the absence.
    table = await setup_table(alice, others=[bob])
    watcher, player = await ws.watching(table, alice, bob)
    hand = (await game_state(table)).hands[1]
    await ws.send(player, type="select", card=hand[0], id="b1")
    await ws.drain(player)
    await player.disconnect()
    seen = await ws.drain(watcher)
    assert seen and "✓" in seen[-1] and 'class="tag warn"' not in seen[-1]

    await sync_to_async(services.seat_remove)(table_id=table.pk, user=bob)
    assert (await game_state(table)).version == 1
    frame = await ws.receive(watcher)
    assert 'id="live"' in frame
    assert 'class="tag warn">away<' in frame
    await watcher.disconnect()
