"""A live push never resets a form field the user is editing (issue 21, point 4).

The table creator picks a bot in the seats section; pushed frames re-render that section
(another player joins, the page's first frame arrives). The bot added must be the one
picked, not the form's first choice. And the lobby's new-table form shows the threshold
only for a game that ends at a threshold, the number of rounds only for one that ends
after so many rounds.
"""

import asyncio
import json
import re
import time

import pytest

from tests.e2e.helpers import without_javascript
from tests.e2e.test_play_in_browser import (
    DESKTOP,
    TIMEOUT_MS,
    create_table,
    note_console_error,
    sign_up,
)

pytestmark = pytest.mark.e2e


SEATED = "() => document.querySelectorAll('#seats .seat-list li:not(.muted)').length"


async def seated(page, count):
    await page.wait_for_function(f"n => ({SEATED})() === n", arg=count, timeout=TIMEOUT_MS)


def bots_of(server, table_url) -> list[str]:
    table_id = int(table_url.rstrip("/").rsplit("/", 1)[1])
    out = server.shell(
        "import json; from games.models import Seat; "
        f"print(json.dumps(list(Seat.objects.filter(table_id={table_id}).exclude(bot='')"
        ".order_by('position').values_list('bot', flat=True))))"
    )
    return json.loads(out.strip().splitlines()[-1])


async def live_frames(page, frames, count, message):
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while sum('id="live"' in frame for frame in frames) < count:
        assert time.monotonic() < deadline, message
        await asyncio.sleep(0.05)


async def test_a_push_keeps_the_bot_the_creator_picked(daphne_server, chromium):
    server = daphne_server
    contexts = [await chromium.new_context(locale="en-US", viewport=DESKTOP) for _ in range(2)]
    creator, guest = [await context.new_page() for context in contexts]
    errors = []
    for page in (creator, guest):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
    frames = []
    creator.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)),
    )
    try:
        await sign_up(creator, server, "pia", "Pia")
        await sign_up(guest, server, "quentin", "Quentin")
        table_url = await create_table(creator, server)
        # The page's own first frame has come: what follows is the push of the join.
        await live_frames(creator, frames, 1, "no first live frame")
        picker = creator.locator("#seats select[name=bot]")
        # Not the first choice (the strongest bot, picked by default): a reset would show.
        await picker.select_option("random")
        await picker.focus()
        await guest.goto(table_url)
        await guest.click("#join")
        await live_frames(creator, frames, 2, "the join was not pushed to the creator")
        await seated(creator, 2)
        assert await picker.input_value() == "random", "the push reset the bot picker"
        # The new picker has the focus the old one had (keyboard users stay where they were).
        focused = "() => document.activeElement.matches('#seats select[name=bot]')"
        assert await creator.evaluate(focused), "the push took the focus away"
        await creator.locator("#seats button:text-is('Add a bot')").click()
        await seated(creator, 3)
        seats = await creator.locator("#seats .seat-list li").all_inner_texts()
        assert seats[2].startswith("Random bot"), seats
        assert bots_of(server, table_url) == ["random"]
        assert not errors, errors
    finally:
        for context in contexts:
            await context.close()


async def test_a_pick_made_before_the_first_frame_survives_it(daphne_server, chromium):
    """The first frame comes right after the page loads; a pick made before it stays."""
    server = daphne_server
    context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
    try:
        page = await context.new_page()
        await sign_up(page, server, "rita", "Rita")
        table_url = await create_table(page, server)
        held = []
        released = []

        # The server's frames wait until the pick is made, as a slow first frame would.
        async def route(ws):
            server_ws = ws.connect_to_server()

            def from_server(message):
                if released:
                    ws.send(message)
                else:
                    held.append(message)

            server_ws.on_message(from_server)
            sockets.append(ws)

        sockets = []
        await page.route_web_socket("**/ws/tables/**", route)
        await page.goto(table_url)
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not any('id="live"' in frame for frame in held):
            assert time.monotonic() < deadline, "no live frame came"
            await asyncio.sleep(0.05)
        picker = page.locator("#seats select[name=bot]")
        await picker.select_option("heuristic")
        await page.evaluate("() => { document.querySelector('#seats').dataset.old = '1'; }")
        released.append(True)
        for message in held:
            sockets[0].send(message)
        # The frame has replaced the section the pick was made in.
        await page.wait_for_function(
            "() => !document.querySelector('#seats').dataset.old", timeout=TIMEOUT_MS
        )
        assert await picker.input_value() == "heuristic", "the first frame reset the pick"
    finally:
        await context.close()


async def test_the_lobby_shows_the_field_of_the_end_chosen(daphne_server, chromium):
    server = daphne_server
    context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
    errors = []
    try:
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
        await sign_up(page, server, "sami", "Sami")
        await page.goto(f"{server.url}/tables/")
        form = page.locator("#new-table")
        threshold, rounds = form.locator("#id_threshold"), form.locator("#id_rounds")
        await threshold.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert await rounds.is_hidden()
        await form.locator("#id_end").select_option("rounds")
        await rounds.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert await threshold.is_hidden()
        assert await page.locator("label[for=id_threshold]").is_hidden()
        await rounds.fill("2")
        await form.locator("#id_end").select_option("threshold")
        await threshold.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert await rounds.is_hidden()
        await form.locator("#id_end").select_option("rounds")
        await form.locator("button[type=submit]").click()
        await page.wait_for_url(re.compile(r".*/tables/\d+/$"))
        assert "2 rounds" in await page.locator(".table-head .options").inner_text()
        assert not errors, errors
    finally:
        await context.close()


async def test_without_javascript_the_lobby_shows_both_end_fields(daphne_server, chromium):
    server = daphne_server
    context = await without_javascript(
        chromium, server, "tess", "Tess", locale="en-US", viewport=DESKTOP
    )
    try:
        page = await context.new_page()
        await page.goto(f"{server.url}/tables/")
        assert await page.locator("#new-table #id_threshold").is_visible()
        assert await page.locator("#new-table #id_rounds").is_visible()
    finally:
        await context.close()
