"""The chat of a table and of the lobby over WebSockets (the real ASGI application)."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone, translation

from chat import services
from chat.canned import CANNED
from chat.models import ChatMessage, ChatMute, ChatSuspension
from tests.chat.helpers import chat_texts, notice_code, say, stored_texts
from tests.games import ws
from tests.games.ws import make, setup_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def club(alice, bob, make_player):
    """Alice and Bob play a started table; Carol watches it."""
    carol = await make(make_player, "carol")
    table = await setup_table(alice, others=[bob])
    return table, alice, bob, carol


async def close(*sockets):
    for socket in sockets:
        await socket.disconnect()


async def test_a_message_reaches_the_other_player_and_a_spectator(club):
    table, alice, bob, carol = club
    a, b, c = await ws.watching(table, alice, bob, carol)
    await say(a, text="Bonne chance à tous", id="m1")
    for socket in (a, b, c):
        assert chat_texts(await ws.drain(socket)) == ["Bonne chance à tous"]
    assert await stored_texts(table=table) == ["Bonne chance à tous"]
    await close(a, b, c)


async def test_a_spectator_message_is_marked_and_players_may_hide_them(club):
    table, alice, bob, carol = club
    await sync_to_async(services.chat_hide_spectators)(user=bob, hide=True)
    a, b, c = await ws.watching(table, alice, bob, carol)
    await say(c, text="Allez Alice !")
    alice_frames = await ws.drain(a)
    assert chat_texts(alice_frames) == ["Allez Alice !"]
    assert "from-spectator" in "".join(alice_frames)
    assert chat_texts(await ws.drain(b)) == []
    # Her own message is shown to the spectator who wrote it.
    assert chat_texts(await ws.drain(c)) == ["Allez Alice !"]
    await close(a, b, c)


async def test_a_canned_message_is_shown_in_each_readers_language(club):
    table, alice, bob, _carol = club
    a = await ws.connect(f"/ws/tables/{table.pk}/", alice, language="fr")
    b = await ws.connect(f"/ws/tables/{table.pk}/", bob, language="en")
    await ws.drain(a), await ws.drain(b)
    await say(a, canned="well_played")
    # "Bien joué !" once the French catalogue has it (the stored key is rendered per reader).
    with translation.override("fr"):
        in_french = str(CANNED["well_played"])
    assert chat_texts(await ws.drain(a)) == [in_french]
    assert chat_texts(await ws.drain(b)) == ["Well played!"]
    assert await sync_to_async(ChatMessage.objects.get)(canned="well_played")
    await close(a, b)


async def test_a_muted_player_is_not_heard_by_the_one_who_muted_them(club):
    table, alice, bob, carol = club
    await sync_to_async(services.chat_mute)(user=alice, muted=bob)
    a, b, c = await ws.watching(table, alice, bob, carol)
    await say(b, text="Tu vas perdre")
    assert chat_texts(await ws.drain(a)) == []
    assert chat_texts(await ws.drain(c)) == ["Tu vas perdre"]
    await close(a, b, c)


async def test_a_mute_holds_at_once_on_open_sockets(club):
    table, alice, bob, _carol = club
    a, b = await ws.watching(table, alice, bob)
    await say(b, text="avant")
    assert chat_texts(await ws.drain(a)) == ["avant"]
    assert chat_texts(await ws.drain(b)) == ["avant"]
    await sync_to_async(services.chat_mute)(user=alice, muted=bob)
    await ws.drain(a)  # the socket reads alice's choices again
    await say(b, text="après")
    assert chat_texts(await ws.drain(a)) == []
    assert chat_texts(await ws.drain(b)) == ["après"]
    await close(a, b)


async def test_text_is_escaped(club):
    table, alice, bob, _carol = club
    a, b = await ws.watching(table, alice, bob)
    attack = '<script>alert(1)</script><img src=x onerror="alert(2)"> & co'
    await say(a, text=attack)
    frames = await ws.drain(b)
    html = "".join(frames)
    assert "<script>" not in html and "<img" not in html
    assert chat_texts(frames) == [
        "&lt;script&gt;alert(1)&lt;/script&gt;"
        "&lt;img src=x onerror=&quot;alert(2)&quot;&gt; &amp; co"
    ]
    # Stored as written: escaping is the template's job.
    assert await stored_texts() == [attack]
    await close(a, b)


async def test_a_display_name_is_escaped_too(club, make_player):
    table, alice, bob, _carol = club
    await sync_to_async(type(bob).objects.filter(pk=bob.pk).update)(display_name="<b>Bob</b>")
    a, b = await ws.watching(table, alice, bob)
    await say(b, text="salut")
    html = "".join(await ws.drain(a))
    assert "&lt;b&gt;Bob&lt;/b&gt;" in html and "<b>Bob</b>" not in html
    await close(a, b)


async def test_a_message_too_long_is_refused_and_not_stored(club):
    table, alice, bob, _carol = club
    a, b = await ws.watching(table, alice, bob)
    await say(a, text="x" * 201, id="long1")
    frames = await ws.drain(a)
    assert notice_code(frames) == "too_long"
    assert 'data-request=""' in frames[-1] or "long1" not in frames[-1]
    assert chat_texts(frames) == [] and chat_texts(await ws.drain(b)) == []
    await say(a, text="x" * 200)
    assert chat_texts(await ws.drain(b)) == ["x" * 200]
    assert await stored_texts() == ["x" * 200]
    await close(a, b)


@pytest.mark.parametrize(
    "message",
    [
        {"text": ""},
        {"text": "   "},
        {"text": 42},
        {"text": "a\x00b"},
        {"text": "two\nlines"},
        {"canned": "insult"},
        {"canned": ["well_played"]},
        {"text": "ok", "id": "<bad id>"},
        {},
    ],
)
async def test_bad_chat_messages_are_refused_with_an_error_and_change_nothing(club, message):
    table, alice, bob, _carol = club
    a, b = await ws.watching(table, alice, bob)
    await say(a, **message)
    frames = await ws.drain(a)
    assert notice_code(frames) == "bad_field"
    assert 'id="notice"' not in "".join(frames)  # answered in the chat, not on the table
    assert chat_texts(await ws.drain(b)) == []
    assert await stored_texts() == []
    await close(a, b)


async def test_writing_too_fast_is_refused_and_not_stored(club, settings):
    settings.SIXCLUB_CHAT_RATE = (3, 6)  # 3 messages in 30 s
    table, alice, bob, _carol = club
    a, b = await ws.watching(table, alice, bob)
    for n in range(4):
        await say(a, text=f"message {n}")
    frames = await ws.drain(a)
    assert notice_code(frames) == "rate_limited"
    assert chat_texts(await ws.drain(b)) == ["message 0", "message 1", "message 2"]
    assert await stored_texts() == ["message 0", "message 1", "message 2"]
    await close(a, b)


async def test_a_suspended_player_is_refused_and_told_until_when(club):
    table, alice, bob, _carol = club
    until = timezone.now() + timezone.timedelta(days=1)
    await sync_to_async(ChatSuspension.objects.create)(user=alice, until=until)
    a, b = await ws.watching(table, alice, bob)
    await say(a, text="je peux parler ?")
    frames = await ws.drain(a)
    assert notice_code(frames) == "suspended"
    assert re.search(r"suspended from the chat until|suspendu de la discussion jusqu", frames[-1])
    assert await stored_texts() == []
    # Reading is still allowed.
    await say(b, text="non")
    assert chat_texts(await ws.drain(a)) == ["non"]
    await close(a, b)


async def test_a_suspension_that_ended_lets_the_player_write_again(club):
    table, alice, bob, _carol = club
    past = timezone.now() - timezone.timedelta(minutes=1)
    await sync_to_async(ChatSuspension.objects.create)(user=alice, until=past)
    a, b = await ws.watching(table, alice, bob)
    await say(a, text="me revoilà")
    assert chat_texts(await ws.drain(b)) == ["me revoilà"]
    await close(a, b)


async def test_a_message_resent_with_the_same_id_is_stored_once(club):
    table, alice, bob, _carol = club
    a, b = await ws.watching(table, alice, bob)
    await say(a, text="une fois", id="c1")
    await say(a, text="une fois", id="c1")
    frames = await ws.drain(a)
    assert notice_code(frames) == ""
    assert chat_texts(frames) == ["une fois"]
    assert await stored_texts() == ["une fois"]
    await close(a, b)


async def test_a_message_hidden_by_an_admin_leaves_open_screens(club, make_player):
    table, alice, bob, _carol = club
    admin = await make(make_player, "root")
    a, b = await ws.watching(table, alice, bob)
    await say(a, text="oups")
    await ws.drain(a), await ws.drain(b)
    hide = sync_to_async(services.chat_hide)
    await hide(messages=ChatMessage.objects.filter(text="oups"), by=admin)
    message = await sync_to_async(ChatMessage.objects.get)(text="oups")
    frames = await ws.drain(b)
    hidden = f'<li id="chat-message-{message.pk}" class="chat-message" hidden></li>'
    assert [frame.strip() for frame in frames] == [hidden]
    await close(a, b)


async def test_chats_of_two_tables_stay_apart(club, make_player):
    table, alice, bob, carol = club
    dave = await make(make_player, "dave")
    other = await setup_table(carol, others=[dave])
    a, b = await ws.watching(table, alice, bob)
    (c,) = await ws.watching(other, carol)
    await say(c, text="ailleurs")
    assert chat_texts(await ws.drain(c)) == ["ailleurs"]
    assert chat_texts(await ws.drain(a)) == []
    await close(a, b, c)


async def test_the_lobby_has_its_own_chat(club):
    table, alice, bob, carol = club
    lobby_a = await ws.connect("/ws/lobby/", alice)
    lobby_c = await ws.connect("/ws/lobby/", carol)
    (b,) = await ws.watching(table, bob)
    await say(lobby_a, canned="hello", id="h1")
    assert chat_texts(await ws.drain(lobby_c)) == ["Hello!"]
    assert notice_code(await ws.drain(lobby_a)) == ""
    assert chat_texts(await ws.drain(b)) == []
    lobby_messages = await sync_to_async(list)(ChatMessage.objects.filter(table__isnull=True))
    assert [m.canned for m in lobby_messages] == ["hello"]
    # The lobby's refusals are the chat's; anything else is still read-only.
    await say(lobby_a, text="y" * 300)
    assert notice_code(await ws.drain(lobby_a)) == "too_long"
    await ws.send(lobby_a, type="select", card=3)
    assert 'data-code="read_only"' in "".join(await ws.drain(lobby_a))
    await close(lobby_a, lobby_c, b)


async def test_a_muted_player_is_not_heard_in_the_lobby_either(alice, bob):
    await sync_to_async(ChatMute.objects.create)(user=alice, muted=bob)
    lobby_a = await ws.connect("/ws/lobby/", alice)
    lobby_b = await ws.connect("/ws/lobby/", bob)
    await say(lobby_b, text="coucou")
    assert chat_texts(await ws.drain(lobby_b)) == ["coucou"]
    assert chat_texts(await ws.drain(lobby_a)) == []
    await close(lobby_a, lobby_b)


async def test_a_lobby_message_over_the_socket_allowance_is_refused_in_the_chat(alice, settings):
    settings.SIXCLUB_WS_RATE = (2, 2)  # the lobby page has no #notice: the chat says it
    lobby = await ws.connect("/ws/lobby/", alice)
    for n in range(3):
        await say(lobby, text=f"vite {n}", id=f"v{n}")
    frames = await ws.drain(lobby)
    assert notice_code(frames) == "rate_limited"
    assert 'id="notice"' not in "".join(frames)
    assert await stored_texts() == ["vite 0", "vite 1"]
    await close(lobby)


async def test_logging_out_closes_the_lobby_socket_too(alice):
    from tests.games.ws import session_cookie

    session = await session_cookie(alice)
    lobby = await ws.connect("/ws/lobby/", session=session)
    from channels.layers import get_channel_layer

    await get_channel_layer().group_send(
        f"user.{alice.pk}", {"type": "session.ended", "session_key": session}
    )
    assert await lobby.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
