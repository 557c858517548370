"""The club room's TV in a real browser, served by daphne: at 1920x1080 it fits the screen
without scrolling, turns its panels by itself, and follows a table's game over its socket
as a spectator sees it; on a phone it still shows its panels. No frame it receives names a
card of anyone's hand."""

import asyncio
import json
import re
import time

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.e2e.test_play_in_browser import (
    ARTIFACTS,
    PASSWORD,
    PHONE,
    TIMEOUT_MS,
    note_console_error,
)

pytestmark = pytest.mark.e2e


TV_SCREEN = {"width": 1920, "height": 1080}

SET_UP = f"""
import datetime, json
from django.utils import timezone
from accounts.models import User
from games import services as games
from leagues import services
from leagues.models import Evening, League, Membership, Season, Standing
league = League.objects.create(name="Club", slug="club")
users = []
for name in ["ana", "ben", "cleo", "dan"]:
    user = User.objects.create_user(name, f"{{name}}@example.org", {PASSWORD!r},
                                    display_name=name.title())
    Membership.objects.create(league=league, user=user, status="active")
    users.append(user)
season = Season.objects.create(league=league, name="2026",
    starts_on=timezone.localdate() - datetime.timedelta(days=9), min_games=1)
for heads, user in enumerate(users):  # an earlier evening's standings
    Standing.objects.create(season=season, user=user, games=1, rounds=1, heads=heads)
evening = Evening.objects.create(season=season, date=timezone.localdate(), table_size=2,
    game_rounds=1, tv_table=1)
evening.players.set(users)
tables = services.seating_generate(event=evening, seed=7)
for table in tables:
    games.table_start(table_id=table.pk, user=None)  # as the night panel
print(json.dumps({{"evening": evening.pk, "tables": [t.pk for t in tables]}}))
"""

# The usernames of a table's players, in seat order.
PLAYERS = """
import json
from games.models import Seat
print(json.dumps(list(Seat.objects.filter(table_id={table}).order_by("position")
                      .values_list("user__username", flat=True))))
"""

# The cards in every hand now, and the unrevealed choices, at the TV's table.
HIDDEN = """
import json
from games import engine
from games.models import Game
nimmt = engine.get("nimmt")
game = Game.objects.get(table_id={table})
state = nimmt.load(game.state)
hidden = set()
for seat in range(2):
    view = nimmt.view(state, seat)
    hidden.update(view["hand"] or [])
    if view["my_selection"] is not None:
        hidden.add(view["my_selection"])
print(json.dumps(sorted(hidden)))
"""

SHOWN = "() => document.querySelector('main.tv').dataset.shown"
GAME_VERSION = (
    "() => { const p = document.querySelector('#tv-game #players');"
    " return p ? Number(p.dataset.version) : -1; }"
)
FITS = (
    "() => document.documentElement.scrollHeight <= window.innerHeight"
    " && document.documentElement.scrollWidth <= window.innerWidth"
)


def last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


async def log_in(page, server, username):
    await page.goto(f"{server.url}/accounts/login/")
    await page.fill("#id_username", username)
    await page.fill("#id_password", PASSWORD)
    await page.click("main form button[type=submit]")
    await page.wait_for_load_state()


def game_cards(frame: str) -> set[int]:
    """The card numbers the TV's game section of a frame draws."""
    game = frame.partition('id="tv-game"')[2]
    found = re.findall(r'(?:title|data-card)="(\d+)"|<b>(\d+)</b>', game)
    return {int(a or b) for a, b in found}


async def test_the_tv_fits_the_screen_turns_its_panels_and_follows_the_game(
    daphne_server, chromium
):
    server = daphne_server
    night = last_json(server.shell(SET_UP))
    table = night["tables"][0]
    url = f"{server.url}/leagues/club/evenings/{night['evening']}/tv/?seconds=5"
    context = await chromium.new_context(locale="en-US", viewport=TV_SCREEN)
    page = await context.new_page()
    errors, frames = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: note_console_error(errors, message))
    page.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda payload: frames.append(payload)),
    )
    try:
        await log_in(page, server, "ana")
        await page.goto(url)
        await page.wait_for_function(f"() => ({GAME_VERSION})() >= 0", timeout=TIMEOUT_MS)
        assert await page.locator("#hand, #tv-game form, #tv-game button:visible").count() == 0

        # Every panel is shown in turn, each filling the screen without a scroll bar.
        seen = set()
        deadline = time.monotonic() + 20
        while len(seen) < 3 and time.monotonic() < deadline:
            shown = await page.evaluate(SHOWN)
            if shown not in seen:
                seen.add(shown)
                assert await page.evaluate(FITS), f"{shown} does not fit 1920x1080"
                ARTIFACTS.mkdir(exist_ok=True)
                await page.screenshot(path=str(ARTIFACTS / f"tv-{shown}.png"))
            await page.wait_for_timeout(250)
        assert seen == {"tv-standings", "tv-tables", "tv-game"}

        # The players of the TV's table choose their cards in their own browsers: the TV
        # hears of each choice over its socket.
        before = await page.evaluate(GAME_VERSION)
        for username in last_json(server.shell(PLAYERS.format(table=table))):
            player = await (await chromium.new_context(locale="en-US", viewport=PHONE)).new_page()
            await log_in(player, server, username)
            # The table's socket is open (its first frame, the table, has come) before
            # the player taps.
            heard = asyncio.Event()
            player.on(
                "websocket",
                lambda socket, heard=heard: socket.on("framereceived", lambda _f: heard.set()),
            )
            await player.goto(f"{server.url}/tables/{table}/")
            await asyncio.wait_for(heard.wait(), TIMEOUT_MS / 1000)
            # A tap before the table's socket is open goes nowhere: tap again until the
            # player's own screen shows the card chosen (or the turn revealed).
            for _attempt in range(5):
                card = player.locator("#hand button.cardbtn").first
                await card.click()
                await card.click()
                try:
                    await player.wait_for_function(
                        "v => Number(document.querySelector('#players').dataset.version) > v",
                        arg=before,
                        timeout=2000,
                    )
                    break
                except PlaywrightTimeout:
                    continue
            await page.wait_for_function(
                f"v => ({GAME_VERSION})() > v", arg=before, timeout=TIMEOUT_MS
            )
            before = await page.evaluate(GAME_VERSION)
            await player.context.close()
        assert frames, "the TV received nothing over its socket"
        hidden = set(last_json(server.shell(HIDDEN.format(table=table))))
        for frame in frames:
            assert game_cards(frame).isdisjoint(hidden), "a hand's card reached the TV"
            assert 'id="hand"' not in frame

        # On a phone: the same screen, smaller; its panels still show.
        await page.set_viewport_size(PHONE)
        await page.wait_for_timeout(300)
        box = await page.locator("main.tv").bounding_box()
        assert box["width"] <= PHONE["width"]
        await page.screenshot(path=str(ARTIFACTS / "tv-phone.png"))
        assert errors == []
    finally:
        await context.close()
