"""Three people sign up, sit at one table and play a whole round in real browsers.

Everything goes through the UI of the real daphne server (tests/servers.py): the
sign-up form, the lobby's new-table form, the seat and start buttons, the hand's card
buttons and, for a card lower than every row (RULES 1.4), the row buttons.
"""

import asyncio
import json
import random
import re
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "Unguessable-Card-Club-77"
PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")]
TIMEOUT_MS = 10_000
GAME_SECONDS = 90

# The version a page shows: within a decision point the server updates only the players'
# section (docs/protocol.md), so its version is the newest; before the game, #live's.
SHOWN = "(document.querySelector('#players') || document.querySelector('#live'))"

# What a player's table page shows right now, read from the DOM the WebSocket keeps live.
READ_TABLE = (
    """() => {
  const live = document.querySelector('#live');
  const shown = """
    + SHOWN
    + """;
  const cards = [...document.querySelectorAll('#hand button.cardbtn')];
  return {
    version: shown ? shown.dataset.version : null,
    phase: live ? live.dataset.phase : null,
    cards: cards.map(button => JSON.parse(button.getAttribute('hx-vals')).card),
    chosen: cards.filter(button => button.getAttribute('aria-pressed') === 'true').length,
    rowbtns: document.querySelectorAll('button.rowbtn').length,
    over: !!document.querySelector('#score-sheet') && !!document.querySelector('#ranking'),
  };
}"""
)


def note_console_error(errors, message):
    """Script errors, blocked resources (CSP) and failed loads; the site has no favicon."""
    if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
        errors.append(f"{message.text} ({message.location.get('url')})")


async def sign_up(page, server, username, display_name):
    await page.goto(f"{server.url}/accounts/signup/")
    await page.fill("#id_username", username)
    await page.fill("#id_email", f"{username}@example.org")
    await page.fill("#id_display_name", display_name)
    await page.fill("#id_password1", PASSWORD)
    await page.fill("#id_password2", PASSWORD)
    await page.click("main form button[type=submit]")
    await page.wait_for_url(f"{server.url}/")
    # Signed in: the navigation now offers the player's own profile.
    assert await page.locator(f"nav a[href='/players/{username}/']").count() == 1


async def create_table(page, server) -> str:
    await page.goto(f"{server.url}/tables/")
    form = page.locator("#new-table")
    await form.locator("#id_name").fill("Friday club")
    await form.locator("#id_seats_count").select_option("3")
    await form.locator("#id_end").select_option("rounds")
    await form.locator("#id_rounds").fill("1")
    await form.locator("button[type=submit]").click()
    await page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    return page.url


async def wait_for_version(page, version):
    await page.wait_for_function(
        f"v => Number({SHOWN}?.dataset.version) >= Number(v)",
        arg=version,
        timeout=TIMEOUT_MS,
    )


async def act(pages, index, version, locator):
    """Click on one player's page, then wait until every page shows what the click did.

    Acting only on screens that are up to date keeps the test from clicking a button
    that the next pushed frame is about to replace.
    """
    await locator.click()
    page = pages[index]
    await page.wait_for_function(
        f"old => {SHOWN}?.dataset.version !== old",
        arg=version,
        timeout=TIMEOUT_MS,
    )
    new_version = await page.evaluate(f"() => {SHOWN}.dataset.version")
    for other in pages:
        await wait_for_version(other, new_version)


async def screenshot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        await page.set_viewport_size(size)
        await page.screenshot(path=ARTIFACTS / f"{name}-{label}.png", full_page=True)
        if label == "phone":
            # Nothing may stick out sideways on a phone: wide parts scroll inside themselves.
            overflow = await page.evaluate(
                "() => document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 1, f"{name}: the page is {overflow}px wider than a phone"
    await page.set_viewport_size(DESKTOP)


async def play_until_scored(pages, names, rng):
    """Click through the round as the players would, until everyone sees the ranking.

    Alice always plays her lowest card, which makes a too-low card (RULES 1.4) likely.
    """
    deadline = time.monotonic() + GAME_SECONDS
    row_choices = []
    shot = False
    while time.monotonic() < deadline:
        seen = [await page.evaluate(READ_TABLE) for page in pages]
        if all(state["over"] for state in seen):
            return row_choices
        choosers = [index for index, state in enumerate(seen) if state["rowbtns"]]
        assert len(choosers) <= 1, f"row buttons shown to several players: {seen}"
        if choosers:
            index = choosers[0]
            version = seen[index]["version"]
            # Once every screen shows that moment, only the chooser may take a row.
            for other, page in enumerate(pages):
                await wait_for_version(page, version)
                if other != index:
                    assert await page.locator("button.rowbtn").count() == 0
                    assert await page.locator("#revealed").count() == 1
            buttons = pages[index].locator("button.rowbtn")
            assert await buttons.count() == 4
            row = rng.randrange(4)
            await act(pages, index, version, buttons.nth(row))
            row_choices.append((names[index], row))
            continue
        ready = [
            index
            for index, state in enumerate(seen)
            if state["phase"] == "select" and state["cards"] and not state["chosen"]
        ]
        if not ready:
            await asyncio.sleep(0.05)
            continue
        if not shot and len(seen[0]["cards"]) == 9 and 0 in ready:
            # Turn 2: rows have grown and the last turn is shown.
            await screenshot(pages[0], "table")
            shot = True
        index = rng.choice(ready)
        cards = seen[index]["cards"]
        card = min(cards) if index == 0 else rng.choice(cards)
        button = pages[index].locator(f"#hand button.cardbtn:has(b:text-is('{card}'))")
        # A tap arms the card; a second tap on it, or its Play button, plays it.
        await button.click()
        confirm = pages[index].locator("#confirm-card")
        await confirm.wait_for(state="visible", timeout=TIMEOUT_MS)
        target = confirm if rng.random() < 0.5 else button
        await act(pages, index, seen[index]["version"], target)
    raise AssertionError(f"the round did not end in {GAME_SECONDS} s: {seen}")


async def test_three_players_sign_up_and_play_a_round_in_browsers(daphne_server, chromium):
    server = daphne_server
    rng = random.Random(6)
    contexts = [await chromium.new_context(locale="en-US", viewport=DESKTOP) for _ in PLAYERS]
    pages = [await context.new_page() for context in contexts]
    errors = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
    try:
        for page, (username, display_name) in zip(pages, PLAYERS, strict=True):
            await sign_up(page, server, username, display_name)

        creator, *others = pages
        table_url = await create_table(creator, server)
        for page in others:
            await page.goto(table_url)
            await page.click("#join")
            await page.wait_for_selector("#join", state="detached", timeout=TIMEOUT_MS)
        # The creator's page learns of both new players over its WebSocket.
        await creator.wait_for_function(
            "() => document.querySelectorAll('#seats .seat-list li:not(.muted)').length === 3",
            timeout=TIMEOUT_MS,
        )
        names = [name for _, name in PLAYERS]
        seated = await creator.locator("#seats .seat-list li").all_inner_texts()
        # Each name carries its standing: a "new" badge for a player not rated yet (heard
        # as "new player, not rated yet").
        shown = [" ".join(line.split()).removesuffix(" Remove") for line in seated]
        assert shown == [f"{n} new new player, not rated yet" for n in names]
        await creator.click("#start")
        for page in pages:
            await page.wait_for_function(
                "() => document.querySelectorAll('#hand button.cardbtn').length === 10",
                timeout=TIMEOUT_MS,
            )

        row_choices = await play_until_scored(pages, names, rng)

        for page in pages:
            sheet = page.locator("#score-sheet")
            assert await sheet.locator("tbody tr").count() == 1
            heads = [int(cell) for cell in await sheet.locator("tbody td.num").all_inner_texts()]
            assert len(heads) == 3
            ranking = await page.locator("#ranking li").all_inner_texts()
            assert sorted(line.split(". ", 1)[1].split(" —")[0] for line in ranking) == sorted(
                names
            )
            assert await page.locator("#hand").count() == 0
        # Everyone sees the same score sheet; each took a row only on a too-low card.
        sheets = [await page.locator("#score-sheet tbody").inner_text() for page in pages]
        assert sheets[0] == sheets[1] == sheets[2]
        await screenshot(creator, "table-over")
        print(f"row choices made in the browser: {json.dumps(row_choices)}")
        assert not errors, errors
    finally:
        for context in contexts:
            await context.close()


async def test_a_french_browser_gets_the_site_in_french(daphne_server, chromium):
    context = await chromium.new_context(locale="fr-FR")
    try:
        page = await context.new_page()
        await page.goto(f"{daphne_server.url}/")
        assert await page.get_attribute("html", "lang") == "fr"
        assert "Ligues" in await page.locator("nav").inner_text()
    finally:
        await context.close()


async def test_a_player_following_the_browser_keeps_its_language_in_live_frames(
    daphne_server, chromium
):
    server = daphne_server
    context = await chromium.new_context(locale="en-US")
    try:
        page = await context.new_page()
        await sign_up(page, server, "erin", "Erin")
        await page.goto(f"{server.url}/accounts/profile/")
        await page.select_option("#id_preferred_language", "")
        await page.click("main form button[type=submit]")
        await page.wait_for_url(f"{server.url}/players/erin/")
        frames = []
        page.on(
            "websocket",
            lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)),
        )
        await create_table(page, server)
        assert await page.get_attribute("html", "lang") == "en"
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not any('id="live"' in frame for frame in frames):
            assert time.monotonic() < deadline, "no live frame came"
            await asyncio.sleep(0.05)
        frame = next(frame for frame in frames if 'id="live"' in frame)
        assert "<h2>Seats</h2>" in frame, "the live frame is not in the page's language"
    finally:
        await context.close()
