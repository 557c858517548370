"""The small things of issue 31, in a browser: a chat message's time on the reader's
clock, Play waiting for a card, and a "the game has moved on" notice that goes with the
next frame. At 360×740 in French and 1280×900 in English."""

import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.e2e.helpers import FRAMES_IN, after_first_frame
from tests.e2e.test_play_in_browser import DESKTOP, TIMEOUT_MS, note_console_error, sign_up

pytestmark = pytest.mark.e2e

SMALL_PHONE = {"width": 360, "height": 740}
SIZES = pytest.mark.parametrize(
    "locale, viewport, zone",
    [
        pytest.param("fr-FR", SMALL_PHONE, "America/New_York", id="fr-360x740"),
        pytest.param("en-US", DESKTOP, "Asia/Tokyo", id="en-1280x900"),
    ],
)
# The server's own time zone (config.settings.TIME_ZONE, as the test server runs it).
SERVER_ZONE = ZoneInfo("Europe/Paris")


def start_game_with_bots(server, username) -> int:
    """A 6 qui prend ! table of one round, `username` and two random bots, started."""
    out = server.shell(
        "from django.contrib.auth import get_user_model; from games import services; "
        f"user = get_user_model().objects.get(username={username!r}); "
        "table = services.table_create(user=user, kind='nimmt', seats_count=3, "
        "options={'end': 'rounds', 'rounds': 1}); "
        "[services.seat_add_bot(table_id=table.pk, user=user, bot='random') for _ in 'ab']; "
        "services.table_start(table_id=table.pk, user=user); print('TABLE', table.pk)"
    )
    return int(re.search(r"TABLE (\d+)", out).group(1))


async def new_page(chromium, locale, viewport, zone, errors):
    context = await chromium.new_context(locale=locale, viewport=viewport, timezone_id=zone)
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: note_console_error(errors, message))
    return context, page


@SIZES
async def test_a_chat_messages_time_shows_on_the_readers_clock(
    daphne_server, chromium, locale, viewport, zone
):
    server = daphne_server
    errors = []
    context, page = await new_page(chromium, locale, viewport, zone, errors)
    try:
        await sign_up(page, server, f"zoe_{viewport['width']}", "Zoé")
        await page.goto(f"{server.url}/tables/")
        # The lobby's chat may show the messages of this module's earlier tests: this
        # test's is the one after them (`.last` could read an earlier one's time, then
        # this one's text once it was pushed).
        earlier = await page.locator("#chat-log time").count()
        await page.locator(".chat-form input[name=text]").fill("Bonsoir")
        await page.locator(".chat-form button[type=submit]").click()
        # Pushed into the log, then read again with the page.
        for reload in (False, True):
            if reload:
                await page.reload()
            time = page.locator("#chat-log time").nth(earlier)
            await (
                page.locator("#chat-log time[data-local]").nth(earlier).wait_for(timeout=TIMEOUT_MS)
            )
            written = datetime.fromisoformat(await time.get_attribute("datetime"))
            assert written.utcoffset().total_seconds() == 0, "not written in UTC"
            local = written.astimezone(ZoneInfo(zone)).strftime("%H:%M")
            assert await time.inner_text() == local
            assert local != written.astimezone(SERVER_ZONE).strftime("%H:%M")
        assert not errors, errors
    finally:
        await context.close()


@SIZES
async def test_play_waits_for_a_card_and_a_stale_notice_goes_with_the_next_frame(
    daphne_server, chromium, locale, viewport, zone
):
    server = daphne_server
    errors = []
    context, page = await new_page(chromium, locale, viewport, zone, errors)
    username = f"yann_{viewport['width']}"
    try:
        await sign_up(page, server, username, "Yann")
        table_id = start_game_with_bots(server, username)
        await page.add_init_script(FRAMES_IN)
        await page.goto(f"{server.url}/tables/{table_id}/")
        cards = page.locator("#hand button.cardbtn")
        await cards.first.wait_for(timeout=TIMEOUT_MS)
        # The socket's first frame redraws the hand: a card chosen before it would be lost.
        await after_first_frame(page, TIMEOUT_MS)
        play = page.locator("#confirm-card")
        # Nothing to play yet: shown, but disabled.
        assert await play.is_visible()
        assert await play.is_disabled(), "Play is enabled before a card is chosen"
        first = await page.locator("#hand").get_attribute("data-version")
        # The highest card: never lower than every row, so no row to choose after it.
        highest = cards.last
        card = await highest.get_attribute("data-card")
        await highest.click()
        assert await play.is_enabled()
        assert card in await play.inner_text()
        await play.click()
        # The bots have chosen already: the turn is placed, the next selection is open.
        await page.wait_for_function(
            "v => { const hand = document.querySelector('#hand');"
            " return hand && hand.dataset.version !== v"
            " && hand.querySelector('button.cardbtn'); }",
            arg=first,
            timeout=TIMEOUT_MS,
        )
        assert await play.is_disabled(), "the new hand's Play is enabled before a card"
        # A card of the screen the game has moved on from (its version is the last turn's).
        old = cards.first
        vals = json.loads(await old.get_attribute("hx-vals"))
        await old.evaluate(
            "(button, vals) => button.setAttribute('hx-vals', JSON.stringify(vals))",
            {**vals, "version": int(first)},
        )
        await old.click()
        await old.click()
        notice = page.locator("#notice")
        await page.wait_for_selector("#notice[data-code=stale]", timeout=TIMEOUT_MS)
        assert (await notice.inner_text()).strip()
        # The next frame (this card played, the turn placed) clears it.
        other = cards.last
        await other.click()
        await play.click()
        await page.wait_for_function(
            "() => { const n = document.querySelector('#notice');"
            " return n && !n.dataset.code && !n.textContent.trim(); }",
            timeout=TIMEOUT_MS,
        )
        assert not errors, errors
    finally:
        await context.close()


@SIZES
async def test_the_seats_offer_the_strongest_bot_and_mark_a_new_player_with_a_badge(
    daphne_server, chromium, locale, viewport, zone
):
    server = daphne_server
    errors = []
    context, page = await new_page(chromium, locale, viewport, zone, errors)
    username = f"xena_{viewport['width']}"
    try:
        await sign_up(page, server, username, "Xena")
        out = server.shell(
            "from django.contrib.auth import get_user_model; from games import services; "
            f"user = get_user_model().objects.get(username={username!r}); "
            "table = services.table_create(user=user, kind='nimmt', seats_count=3, options={}); "
            "print('TABLE', table.pk)"
        )
        table_id = int(re.search(r"TABLE (\d+)", out).group(1))
        await page.add_init_script(FRAMES_IN)
        await page.goto(f"{server.url}/tables/{table_id}/")
        # The socket's first frame redraws the seats: measure the picker it draws.
        await after_first_frame(page, TIMEOUT_MS)
        picker = page.locator("#seats select[name=bot]")
        await picker.wait_for(timeout=TIMEOUT_MS)
        assert await picker.input_value() == "expert"
        first = (await picker.locator("option").all_inner_texts())[0]
        assert first.startswith("Expert bot —" if locale == "en-US" else "Robot expert —"), first
        box = await picker.bounding_box()
        assert box["x"] + box["width"] <= viewport["width"], "the picker is wider than the page"
        # "new" beside the name, as a badge a screen reader hears as what it means.
        seat = page.locator("#seats .seat-list li").first
        badge = seat.locator(".badge.new-player")
        assert await badge.is_visible()
        assert (await seat.locator(".visually-hidden").count()) == 1
        background = await badge.evaluate("b => getComputedStyle(b).backgroundColor")
        assert background not in ("rgba(0, 0, 0, 0)", "transparent")
        assert not errors, errors
    finally:
        await context.close()
