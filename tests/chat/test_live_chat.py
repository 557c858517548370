"""The chat on the real server (daphne, and Redis when REDIS_URL is set) and in Chromium.

Through Redis a chat message travels as its id only (DESIGN: nothing but ids and versions
cross the channel layer; tests/live/test_redis_carries_no_secrets.py): every Redis command
of the run is recorded while players chat, and none holds what they wrote.
"""

import asyncio
import json
import re
import time

import pytest
from websockets.asyncio.client import connect as ws_connect

from tests.e2e.test_play_in_browser import DESKTOP, TIMEOUT_MS, note_console_error
from tests.live.test_redis_carries_no_secrets import Monitor, arguments, layer_message

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services
users = [User.objects.create_user(NAME + str(n), password="pw-long-enough-1",
                                  display_name=NAME.title() + str(n)) for n in range(3)]
table = services.table_create(user=users[0], seats_count=2, options={})
services.seat_join(table_id=table.pk, user=users[1])
services.table_start(table_id=table.pk, user=users[0])
cookies = []
for user in users:
    client = Client()
    client.force_login(user)
    cookies.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
print(json.dumps({"table": table.pk, "cookies": cookies, "ids": [u.pk for u in users]}))
"""


def set_up(server, name):
    out = server.shell(f"NAME = {name!r}\n" + SETUP)
    return json.loads(out.strip().splitlines()[-1])


async def open_socket(server, path, cookie):
    return await ws_connect(
        f"{server.ws_url}{path}",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={cookie}"},
    )


async def frames_until(socket, text, seconds=10):
    """Frames until one holds `text`."""
    frames = []
    deadline = time.monotonic() + seconds
    while not frames or text not in frames[-1]:
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} never came: {frames[-3:]}"
        frames.append(await asyncio.wait_for(socket.recv(), left))
    return frames


async def test_chat_crosses_redis_as_a_message_id_only(daphne_server):
    url = daphne_server.env.get("REDIS_URL")
    if not url:
        pytest.skip("the site's Redis is watched: set REDIS_URL")
    prefix = daphne_server.env["REDIS_PREFIX"].encode()
    setup = set_up(daphne_server, "redischat")
    table = f"/ws/tables/{setup['table']}/"
    secret = "Mon jeu: 7 12 33 (secret-word-xyzzy)"
    with Monitor(url) as monitor:
        player, other, spectator = [
            await open_socket(daphne_server, table, cookie) for cookie in setup["cookies"]
        ]
        lobby = await open_socket(daphne_server, "/ws/lobby/", setup["cookies"][1])
        for socket in (player, other, spectator):
            await frames_until(socket, 'id="live"')
        await player.send(json.dumps({"type": "chat", "text": secret, "id": "s1"}))
        await lobby.send(json.dumps({"type": "chat", "text": "lobby xyzzy", "id": "l1"}))
        for socket in (other, spectator):
            await frames_until(socket, "secret-word-xyzzy")
        await frames_until(lobby, "lobby xyzzy")
        for socket in (player, other, spectator, lobby):
            await socket.close()
    chat = []
    for command in monitor.commands:
        if prefix not in command.encode("latin-1"):
            continue
        assert "xyzzy" not in command, f"a chat text went to Redis: {command[:300]}"
        for argument in arguments(command):
            message = layer_message(argument)
            if message and message["type"].startswith("chat."):
                chat.append(message)
    assert chat, "no chat announcement crossed Redis"
    assert all(
        set(message) - {"__asgi_group__", "__asgi_channel__"} == {"type", "message"}
        for message in chat
    ), chat
    assert all(isinstance(message["message"], int) for message in chat)


async def test_chat_on_the_real_server_refuses_a_flood(daphne_server):
    setup = set_up(daphne_server, "floodchat")
    socket = await open_socket(daphne_server, f"/ws/tables/{setup['table']}/", setup["cookies"][0])
    await frames_until(socket, 'id="live"')
    for n in range(8):
        await socket.send(json.dumps({"type": "chat", "text": f"flood {n}", "id": f"f{n}"}))
    frames = await frames_until(socket, 'data-code="rate_limited"')
    assert 'data-request="f5"' in frames[-1]  # the sixth message
    await socket.close()
    stored = daphne_server.shell(
        "from chat.models import ChatMessage; "
        f"print(ChatMessage.objects.filter(sender_id={setup['ids'][0]}).count())"
    )
    assert int(stored.strip().splitlines()[-1]) == 5  # chat.limits.DEFAULT_RATE's burst


LOG_TEXTS = "() => [...document.querySelectorAll('#chat-log .chat-text')].map(e => e.textContent)"


async def log_texts(page):
    return await page.evaluate(LOG_TEXTS)


async def wait_log(page, texts):
    await page.wait_for_function(
        f"want => JSON.stringify(({LOG_TEXTS})()) === JSON.stringify(want)",
        arg=texts,
        timeout=TIMEOUT_MS,
    )


@pytest.mark.e2e
async def test_players_chat_in_their_browsers(daphne_server, chromium):
    server = daphne_server
    setup = set_up(server, "browserchat")
    pages, errors = [], []
    for cookie in setup["cookies"][:2]:
        context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
        await context.add_cookies([{"name": "sessionid", "value": cookie, "url": server.url}])
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
        opened = page.wait_for_event("websocket")
        await page.goto(f"{server.url}/tables/{setup['table']}/")
        await (await opened).wait_for_event("framereceived")
        pages.append(page)
    alice, bob = pages

    box = alice.locator(".chat-form input[name=text]")
    await box.fill("<b>Bonne partie</b> à tous")
    await box.press("Enter")
    await wait_log(bob, ["<b>Bonne partie</b> à tous"])
    await wait_log(alice, ["<b>Bonne partie</b> à tous"])
    assert await bob.locator("#chat-log b").count() == 0  # shown as text, not as HTML
    # The box empties once the server has taken the message.
    await alice.wait_for_function(
        "() => document.querySelector('.chat-form input[name=text]').value === ''",
        timeout=TIMEOUT_MS,
    )
    await bob.click(".chat-canned button:has-text('Well played!')")
    await wait_log(alice, ["<b>Bonne partie</b> à tous", "Well played!"])

    # Bob mutes Alice from one of her lines: her lines leave his log, new ones stay away.
    line = bob.locator("#chat-log li", has_text="Bonne partie")
    await line.locator("button", has_text="Mute").click()
    await wait_log(bob, ["Well played!"])
    await box.fill("tu m'entends ?")
    await box.press("Enter")
    await wait_log(alice, ["<b>Bonne partie</b> à tous", "Well played!", "tu m'entends ?"])
    await asyncio.sleep(0.5)
    assert await log_texts(bob) == ["Well played!"]
    assert re.search("1 muted player", await bob.locator("#chat-settings").inner_text())

    # Both play a card: the turn's reveal replaces #live on both pages, the chat stays.
    before = await alice.get_attribute("#live", "data-version")
    for page in (alice, bob):
        card = page.locator("#hand button.cardbtn").first
        await card.click()
        await card.click()
    await alice.wait_for_function(
        "v => document.querySelector('#live').dataset.version !== v", arg=before, timeout=TIMEOUT_MS
    )
    assert await log_texts(alice) == [
        "<b>Bonne partie</b> à tous",
        "Well played!",
        "tu m'entends ?",
    ]
    assert await log_texts(bob) == ["Well played!"]
    assert errors == []
