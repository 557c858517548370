"""A player who closes her browser mid-game does not stop the table (issue 31, RULES
§1.8): a Six game with no time limit, Alice and Bob in browser contexts of their own with
two bots. Alice plays a few cards, then closes her browser. With a short grace and away
wait (this module's server: AWAY_GRACE=3, AWAY_WAIT=1) she is shown away on Bob's page,
the computer plays her cards, and Bob plays the game to its end alone. Alice signs in
again and opens the table: at its top, visible without scrolling, a banner says how many
decisions the computer played for her, and the final ranking shows how it ended.

At 360×740 in French and 1280×900 in English. The banner's wording is checked in English
only (its French translation is merged by the lead from /tmp/po/h1.po); in French, what
does not depend on it: the banner, its count, the "away" mark, the ranking.
"""

import re
import time

import pytest

from tests import servers as live
from tests.e2e.helpers import FRAMES_IN, GameReader, after_first_frame, log_in
from tests.e2e.test_play_in_browser import TIMEOUT_MS, note_console_error, sign_up
from tests.e2e.test_six_game import READER, SETUP

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SEED = 34
TARGET = 10
# Alice's own plays before she closes her browser.
ALICE_PLAYS = 2
GAME_SECONDS = 180
WS_OPEN = "document.addEventListener('htmx:wsOpen', () => { window.sixSocketOpen = true; });"

# How many decisions the computer made for Alice since her own last one.
PLAYED_FOR = """
from games.models import Decision
own = Decision.objects.filter(game__table_id={table}, seat=0, source="player").order_by("-seq")
last = own.values_list("seq", flat=True).first() or 0
print(Decision.objects.filter(
    game__table_id={table}, seat=0, source__in=["away", "timeout"], seq__gt=last
).count())
"""


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """A server whose players are away 3 s after their last socket closed, and played for
    1 s after a decision point opened."""
    yield from live.serve(tmp_path_factory, AWAY_GRACE="3", AWAY_WAIT="1")


async def play_first_raised_card(page, version):
    button = page.locator(f"#hand[data-version='{version}'] button.playbtn").first
    await button.wait_for(timeout=TIMEOUT_MS)
    await button.click()


@pytest.mark.parametrize(
    ("size", "locale"), [(PHONE, "fr-FR"), (DESKTOP, "en-US")], ids=["phone-fr", "desktop-en"]
)
async def test_a_game_goes_on_without_a_player_who_closed_her_browser(
    quick_server, chromium, size, locale
):
    server = quick_server
    label = "fr" if locale == "fr-FR" else "en"
    options = {"locale": locale, "viewport": size, "has_touch": size == PHONE}
    contexts = [await chromium.new_context(**options) for _ in range(2)]
    for context in contexts:
        await context.add_init_script(WS_OPEN)
    pages = [await context.new_page() for context in contexts]
    errors = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
    reader = GameReader(server, READER)
    alice_name, bob_name = f"away_alice_{label}", f"away_bob_{label}"
    try:
        await sign_up(pages[0], server, alice_name, "Alice")
        await sign_up(pages[1], server, bob_name, "Bob")
        out = server.shell(SETUP.format(alice=alice_name, bob=bob_name, target=TARGET, seed=SEED))
        table_id = int(out.strip().splitlines()[-1])
        table_url = f"{server.url}/tables/{table_id}/"
        for page in pages:
            await page.goto(table_url)
            await page.locator("#rows").wait_for(timeout=TIMEOUT_MS)
            await page.wait_for_function("() => window.sixSocketOpen === true", timeout=TIMEOUT_MS)
        await reader.start()
        alice, bob = pages
        alice_plays, left_at, seen_away = 0, None, False
        state, deadline = None, time.monotonic() + GAME_SECONDS
        while True:
            assert time.monotonic() < deadline, f"the game did not end in time: {state}"
            state = await reader.read(table_id)
            if state["phase"] == "over":
                break
            seat, version = state["to_move"], state["version"]
            if seat == 1:
                await play_first_raised_card(bob, version)
            elif left_at is None:
                await play_first_raised_card(alice, version)
                alice_plays += 1
                if alice_plays == ALICE_PLAYS:
                    # Mid-game, Alice closes her browser: every socket of hers closes.
                    await contexts[0].close()
                    left_at = time.monotonic()
            # Else nobody taps for Alice: the server plays for her once she is away.
            if left_at is not None and not seen_away:
                seen_away = await bob.locator("#players tr[data-seat='0'] .tag.warn").count() > 0
            await bob.wait_for_function(
                "v => Number(document.querySelector('#players')?.dataset.version) > v",
                arg=version,
                timeout=TIMEOUT_MS,
            )
        assert left_at is not None, "the game ended before Alice left"
        assert seen_away, "Bob's page never showed Alice away"
        if label == "en":
            assert "away" in await bob.locator("#players tr[data-seat='0'] .tag.warn").inner_text()
        await bob.locator("#winner-banner").wait_for(timeout=TIMEOUT_MS)

        # Alice comes back: a new browser, signed in again, on the table's page.
        played = int(server.shell(PLAYED_FOR.format(table=table_id)).strip().splitlines()[-1])
        assert played > 0
        context = await chromium.new_context(**options)
        contexts.append(context)
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
        await log_in(page, server, alice_name)
        await page.add_init_script(FRAMES_IN)
        await page.goto(table_url)
        # The socket's first frame redraws the table: measure the banner it draws.
        await after_first_frame(page, TIMEOUT_MS)
        banner = page.locator("#away-banner")
        await banner.wait_for(timeout=TIMEOUT_MS)
        text = " ".join((await banner.inner_text()).split())
        assert re.findall(r"\d+", text) == [str(played)], text
        if label == "en":
            expected = f"You were away: the computer played {played} decisions for you."
            assert text == expected
        # At the top: in view without scrolling, above the result and the board.
        box = await banner.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
        ranking = await page.locator("#ranking").bounding_box()
        assert box["y"] < ranking["y"]
        # What happened: the game's end, as Bob saw it.
        assert await page.locator("#winner-banner").count() == 1
        assert await page.locator("#ranking li").count() == 4
        # The game is over: nothing to come back to, no "I'm back".
        assert await page.locator("#back").count() == 0
        assert not errors, errors
    finally:
        await reader.stop()
        for context in contexts:
            await context.close()  # nothing to do for one closed already
