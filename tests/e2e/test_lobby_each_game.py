"""A new player creates a table of each game from the lobby, on the first try (issue 30).

In real Chromium against the real daphne server, at a phone's size and a desktop's, in
French and in English: the player signs up, opens the lobby, chooses the game (the page
swaps in that game's fields, with their defaults, and no other game's), names the table
and presses "Create" once: the table's page opens, and no POST of the form was refused.
Back in the lobby, each row names its game and the game's summary of its options, and the
game's link keeps the list to that game. Without JavaScript, the "Show this game's
options" button does what choosing does with it.

Screenshots: tests/e2e/artifacts/lobby-each-game-{phone,desktop}-{fr,en}.png (git-ignored).
"""

import re
from urllib.parse import urlparse

import pytest

from tests.e2e.helpers import without_javascript
from tests.e2e.test_play_in_browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    note_console_error,
    sign_up,
)

pytestmark = pytest.mark.e2e


# Each game as the lobby draws it: its name, the summary of a table of its defaults in
# each language, a field of its own that shows with its default, and its other fields.
GAMES = {
    "nimmt": {
        "label": "6 qui prend !",
        "summary": {"en": "to 66 heads", "fr": "en 66 têtes"},
        "field": ("#id_threshold", "66"),
    },
    "six": {
        "label": "Six",
        "summary": {"en": "to 30 points", "fr": "en 30 points"},
        "field": ("#id_target", "30"),
    },
    "surprise": {
        "label": "6 qui surprend",
        "summary": {"en": "2 rounds, specials", "fr": "2 manches, cartes spéciales"},
        "field": ("#id_live_scores", "on"),
    },
}
# Fields only one game has (6 qui prend ! and Six both have an `end`, each its own).
OWN_FIELDS = {
    "nimmt": ["#id_threshold", "#id_rounds", "#id_deal", "#id_card_limit"],
    "six": ["#id_deck", "#id_target", "#id_hands", "#id_balanced"],
    "surprise": [],
}
CREATED = re.compile(r".*/tables/\d+/$")
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
# Set once the lobby's socket is open (htmx's ws extension).
SOCKET_OPEN = "document.addEventListener('htmx:wsOpen', () => { window.lobbySocketOpen = true; });"


def note_refusal(refused: list, response) -> None:
    """A post of the new-table form answered otherwise than by the new table."""
    lobby = urlparse(response.url).path == "/tables/"
    if response.request.method == "POST" and lobby and response.status != 302:
        refused.append(response.status)


async def choose(page, game: str) -> None:
    """Choose `game` in the form, and wait until its fields have replaced the others."""
    form = page.locator("#new-table")
    await form.locator("#id_kind").select_option(game)
    await form.locator(f"#game-options input[name=options_for][value={game}]").wait_for(
        state="attached", timeout=TIMEOUT_MS
    )


async def shows_only_its_fields(page, game: str) -> None:
    form = page.locator("#new-table")
    field, default = GAMES[game]["field"]
    await form.locator(field).wait_for(state="visible", timeout=TIMEOUT_MS)
    if default == "on":
        assert await form.locator(field).is_checked(), f"{game}: {field} not ticked"
    else:
        assert await form.locator(field).input_value() == default, f"{game}: {field}"
    for other, fields in OWN_FIELDS.items():
        if other != game:
            for name in fields:
                assert await form.locator(name).count() == 0, f"{game} shows {other}'s {name}"
    assert await page.evaluate(OVERFLOW) <= 1, f"{game}: the lobby is wider than the screen"


@pytest.mark.parametrize(
    ("size", "language"), [("phone", "fr"), ("desktop", "en"), ("phone", "en"), ("desktop", "fr")]
)
async def test_a_new_player_creates_a_table_of_each_game(daphne_server, chromium, size, language):
    server = daphne_server
    viewport = PHONE if size == "phone" else DESKTOP
    locale = "fr-FR" if language == "fr" else "en-US"
    context = await chromium.new_context(locale=locale, viewport=viewport)
    errors, refused = [], []
    try:
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
        page.on("response", lambda response: note_refusal(refused, response))
        username = f"new{size}{language}"
        await sign_up(page, server, username, f"New {size} {language}")
        names = {}
        for game in GAMES:
            await page.goto(f"{server.url}/tables/")
            if game != await page.locator("#new-table #id_kind").input_value():
                await choose(page, game)
            await shows_only_its_fields(page, game)
            names[game] = f"{GAMES[game]['label']} {size} {language}"
            await page.locator("#new-table #id_name").fill(names[game])
            await page.locator("#new-table button[type=submit]").click()
            await page.wait_for_url(CREATED, timeout=TIMEOUT_MS)
            assert not refused, f"{game}: the form was refused ({refused})"
            assert names[game] in await page.locator("h1").first.inner_text()

        await page.goto(f"{server.url}/tables/")
        mine = page.locator("#lobby-tables section").first
        for game, name in names.items():
            row = mine.locator("li.table-item", has_text=name)
            text = " ".join((await row.inner_text()).split())
            label, summary = GAMES[game]["label"], GAMES[game]["summary"][language]
            assert f"{label} · {summary} ·" in text, text
        assert await page.evaluate(OVERFLOW) <= 1, "the lobby is wider than the screen"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"lobby-each-game-{size}-{language}.png"
        await page.screenshot(path=shot, full_page=True)

        # The game's link lists only its tables.
        await page.locator("nav.lobby-filter a", has_text=GAMES["six"]["label"]).first.click()
        await page.wait_for_url(re.compile(r".*/tables/\?kind=six$"), timeout=TIMEOUT_MS)
        listed = await page.locator("#lobby-tables li.table-item .muted").all_inner_texts()
        assert all(row.startswith(f"{GAMES['six']['label']} · ") for row in listed), listed
        mine = page.locator("#lobby-tables section").first
        assert await mine.locator("li.table-item").all_inner_texts() == [
            await mine.locator("li.table-item", has_text=names["six"]).inner_text()
        ]
        assert not errors, errors
    finally:
        await context.close()


async def test_without_javascript_a_table_of_another_game_is_created(daphne_server, chromium):
    server = daphne_server
    context = await without_javascript(
        chromium, server, "nojs", "No Script", locale="en-US", viewport=PHONE
    )
    try:
        page = await context.new_page()
        await page.goto(f"{server.url}/tables/")
        form = page.locator("#new-table")
        await form.locator("#id_name").fill("Sans script")
        await form.locator("#id_kind").select_option("six")
        await form.locator("button[name=change_game]").click()
        await page.wait_for_load_state()
        await shows_only_its_fields(page, "six")
        assert await form.locator("#id_name").input_value() == "Sans script"
        await form.locator("button[type=submit]:not([name])").click()
        await page.wait_for_url(CREATED, timeout=TIMEOUT_MS)
        assert "Sans script" in await page.locator("h1").first.inner_text()
    finally:
        await context.close()


async def test_a_list_of_one_game_keeps_to_it_as_tables_come(daphne_server, chromium):
    """The lobby's socket pushes every game's tables; a list of Six's stays Six's."""
    server = daphne_server
    contexts = [await chromium.new_context(locale="en-US", viewport=DESKTOP) for _ in range(2)]
    watcher, host = [await context.new_page() for context in contexts]
    errors = []
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    watcher.on("console", lambda message: note_console_error(errors, message))
    try:
        await sign_up(watcher, server, "watcher", "Watcher")
        await sign_up(host, server, "host", "Host")
        await watcher.add_init_script(SOCKET_OPEN)
        await watcher.goto(f"{server.url}/tables/?kind=six")
        await watcher.wait_for_function("() => window.lobbySocketOpen", timeout=TIMEOUT_MS)
        for game, name in (("nimmt", "Heads for the host"), ("six", "Points for the host")):
            await host.goto(f"{server.url}/tables/")
            if game != await host.locator("#new-table #id_kind").input_value():
                await choose(host, game)
            await host.locator("#new-table #id_name").fill(name)
            await host.locator("#new-table button[type=submit]").click()
            await host.wait_for_url(CREATED, timeout=TIMEOUT_MS)
        rows = watcher.locator("#lobby-tables li.table-item")
        await rows.filter(has_text="Points for the host").first.wait_for(timeout=TIMEOUT_MS)
        listed = await watcher.locator("#lobby-tables li.table-item .muted").all_inner_texts()
        assert all(row.startswith("Six · ") for row in listed), listed
        assert await rows.filter(has_text="Heads for the host").count() == 0
        assert not errors, errors
    finally:
        for context in contexts:
            await context.close()


async def test_a_refused_form_says_what_to_fix_on_a_phone_screen(daphne_server, chromium):
    server = daphne_server
    context = await chromium.new_context(locale="fr-FR", viewport=PHONE)
    try:
        page = await context.new_page()
        await sign_up(page, server, "hasty", "Hasty")
        await page.goto(f"{server.url}/tables/")
        await choose(page, "six")
        await page.locator("#new-table #id_target").fill("")
        await page.locator("#new-table button[type=submit]").click()
        await page.wait_for_load_state()
        summary = page.locator("#new-table-errors")
        await summary.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert await summary.evaluate("box => box === document.activeElement")
        assert await summary.evaluate(
            "box => box.getBoundingClientRect().top >= 0"
            " && box.getBoundingClientRect().bottom <= window.innerHeight"
        ), "the refusal is not on screen"
        await summary.locator("a[href='#id_target']").click()
        target = page.locator("#new-table #id_target")
        assert await target.evaluate("input => input === document.activeElement")
        assert (
            "Ce champ est obligatoire."
            in await page.locator("#new-table div:has(> #id_target)").inner_text()
        )
        await target.fill("20")
        await page.locator("#new-table button[type=submit]").click()
        await page.wait_for_url(CREATED, timeout=TIMEOUT_MS)
    finally:
        await context.close()


async def test_a_game_chosen_again_shows_only_the_fields_that_apply(daphne_server, chromium):
    """6 qui prend !'s threshold or rounds, swapped in again, shows as its end says."""
    server = daphne_server
    context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
    try:
        page = await context.new_page()
        await sign_up(page, server, "fickle", "Fickle")
        await page.goto(f"{server.url}/tables/")
        await choose(page, "six")
        await choose(page, "nimmt")
        await shows_only_its_fields(page, "nimmt")
        assert await page.locator("#new-table #id_rounds").is_hidden()
    finally:
        await context.close()
