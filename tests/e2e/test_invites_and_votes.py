"""Issue 31 in a browser: an invited player takes a seat from the invite link and plays
without reloading; the other players vote an away player's seat to a bot. At 360×740 in
French and 1280×900 in English.

The French runs assert on what does not depend on the new French wording (ids, data
attributes, names), which comes with the catalogue's merge."""

import json
import re

import pytest

from tests.e2e.helpers import log_in
from tests.e2e.test_play_in_browser import DESKTOP, PASSWORD, TIMEOUT_MS, note_console_error

pytestmark = pytest.mark.e2e

SMALL_PHONE = {"width": 360, "height": 740}
SIZES = pytest.mark.parametrize(
    "locale, viewport",
    [
        pytest.param("fr-FR", SMALL_PHONE, id="fr-360x740"),
        pytest.param("en-US", DESKTOP, id="en-1280x900"),
    ],
)


def set_up(server, code: str) -> dict:
    """Run `code` in the server's shell with `make_player(username, name)` at hand; it sets
    `out`, printed back as JSON."""
    prelude = (
        "import json\n"
        "from django.contrib.auth import get_user_model\n"
        "from games import services\n"
        "def make_player(username, name):\n"
        f"    return get_user_model().objects.create_user(username, password={PASSWORD!r},"
        " email=username + '@example.org', display_name=name)\n"
    )
    output = server.shell(prelude + code + "\nprint('OUT', json.dumps(out))")
    return json.loads(re.search(r"^OUT (.*)$", output, re.M).group(1))


async def player_page(chromium, server, username, locale, viewport, errors):
    context = await chromium.new_context(locale=locale, viewport=viewport)
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: note_console_error(errors, message))
    await log_in(page, server, username)
    return context, page


@SIZES
async def test_an_invited_player_sits_and_plays_without_reloading(
    daphne_server, chromium, locale, viewport
):
    server = daphne_server
    suffix = viewport["width"]
    setup = set_up(
        server,
        f"alice = make_player('inv_alice_{suffix}', 'Alice')\n"
        f"make_player('inv_bob_{suffix}', 'Bob')\n"
        "table = services.table_create(user=alice, seats_count=2, is_public=False,"
        " options={'end': 'rounds', 'rounds': 1})\n"
        "out = {'table': table.pk}",
    )
    errors = []
    contexts = []
    try:
        context, creator = await player_page(
            chromium, server, f"inv_alice_{suffix}", locale, viewport, errors
        )
        contexts.append(context)
        context, invited = await player_page(
            chromium, server, f"inv_bob_{suffix}", locale, viewport, errors
        )
        contexts.append(context)
        await creator.goto(f"{server.url}/tables/{setup['table']}/")
        link = (await creator.locator(".invite-link").inner_text()).strip()
        assert "?invite=" in link
        # Bob opens the link the creator sent him, and sits.
        await invited.goto(f"{server.url}{link}")
        await invited.evaluate("() => { window.notReloaded = true; }")
        await invited.locator("#join").click()
        await invited.wait_for_selector("#join", state="detached", timeout=TIMEOUT_MS)
        await creator.wait_for_function(
            "() => document.querySelectorAll('#seats .seat-list li:not(.muted)').length === 2",
            timeout=TIMEOUT_MS,
        )
        await creator.locator("#start").click()
        # His page shows the game at once, and he plays his first card.
        hand = invited.locator("#hand button.cardbtn")
        await invited.wait_for_function(
            "() => document.querySelectorAll('#hand button.cardbtn').length === 10",
            timeout=TIMEOUT_MS,
        )
        await hand.first.click()
        confirm = invited.locator("#confirm-card")
        await confirm.wait_for(state="visible", timeout=TIMEOUT_MS)
        await confirm.click()
        # The creator's page shows that Bob has chosen (✓), his own page his choice.
        await creator.wait_for_function(
            "() => (document.querySelector('#players tr[data-seat=\"1\"]')?.textContent || '')"
            ".includes('✓')",
            timeout=TIMEOUT_MS,
        )
        assert await invited.evaluate("() => window.notReloaded === true")
        assert not errors, errors
    finally:
        for context in contexts:
            await context.close()


@SIZES
async def test_the_others_vote_an_away_players_seat_to_a_bot(
    daphne_server, chromium, locale, viewport
):
    server = daphne_server
    suffix = viewport["width"]
    names = [f"vote_{name}_{suffix}" for name in ("alice", "bob", "carol")]
    setup = set_up(
        server,
        f"alice, bob, carol = [make_player(u, n) for u, n in zip({names!r},"
        " ['Alice', 'Bob', 'Carol'])]\n"
        "table = services.table_create(user=alice, kind='nimmt', seats_count=3,"
        " options={'end': 'rounds', 'rounds': 1})\n"
        "services.seat_join(table_id=table.pk, user=bob)\n"
        "services.seat_join(table_id=table.pk, user=carol)\n"
        "services.table_start(table_id=table.pk, user=alice)\n"
        "out = {'table': table.pk}",
    )
    errors = []
    contexts, pages = [], []
    try:
        for username in names:
            context, page = await player_page(chromium, server, username, locale, viewport, errors)
            contexts.append(context)
            pages.append(page)
            await page.goto(f"{server.url}/tables/{setup['table']}/")
            await page.wait_for_selector("#hand button.cardbtn", timeout=TIMEOUT_MS)
        alice, bob, carol = pages
        # Carol leaves the table: the computer plays for her, and she is away.
        await carol.locator("#seat-actions form[action$='/leave/'] button").click()
        vote = "#replace-votes button[data-vote='2']"
        for page in (alice, bob):
            await page.wait_for_selector(vote, timeout=TIMEOUT_MS)
        if locale == "en-US":
            label = await alice.locator(vote).inner_text()
            assert label.strip() == "Give Carol's seat to a bot (0 of 2 votes)"
        await alice.locator(vote).click()
        # Alice's vote is counted on Bob's page; she may not vote again.
        await alice.wait_for_selector(vote, state="detached", timeout=TIMEOUT_MS)
        await bob.wait_for_function(
            "() => /\\b1\\b.*\\b2\\b/.test(document.querySelector("
            "\"#replace-votes button[data-vote='2']\")?.textContent || '')",
            timeout=TIMEOUT_MS,
        )
        await bob.locator(vote).focus()
        await bob.keyboard.press("Enter")
        # The seat is a bot's on every page: Carol's name is gone from the players' table.
        seat = "#players tr[data-seat='2']"
        for page in pages:
            await page.wait_for_function(
                f'() => !!document.querySelector("{seat}") &&'
                f" !document.querySelector(\"{seat}\").textContent.includes('Carol')",
                timeout=TIMEOUT_MS,
            )
            assert await page.locator("#replace-votes").count() == 0
        # Carol has no seat left: no hand, nothing to act on.
        assert await carol.locator("#hand").count() == 0
        assert await carol.locator("#seat-actions").count() == 0
        bots = set_up(
            server,
            "from games.models import Seat\n"
            f"out = Seat.objects.get(table_id={setup['table']}, position=2).bot",
        )
        assert bots == "expert"
        assert not errors, errors
    finally:
        for context in contexts:
            await context.close()
