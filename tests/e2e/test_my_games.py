"""'My games' on a phone (issue 34): at 390×844, in English and in French, the navigation
bar says how many tables wait for the player (read as text: "My games, 1 waiting"), the
page lists the table waiting for her first, nothing is wider than the screen, and the
keyboard alone reaches the page and the table."""

import pytest
from django.utils import translation

from tests.e2e.test_play_in_browser import PHONE, sign_up

pytestmark = pytest.mark.e2e

SETUP = """
from accounts.models import User
from games import services
alice = User.objects.get(username={name!r})
bob = User.objects.create_user({other!r}, email="{other}@example.org", password="x-Unused-77")
waiting = services.table_create(
    user=alice, seats_count=2, options={{"end": "rounds", "rounds": 1}},
    time_limit=48 * 3600, name="By mail",
)
services.seat_join(table_id=waiting.pk, user=bob)
services.table_start(table_id=waiting.pk, user=alice)
services.table_create(user=alice, seats_count=3, options={{}}, name="Newer open table")
print(waiting.pk)
"""

WIDEST = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def expected(language: str) -> dict:
    """The page's words in `language`, as the site's translations give them."""
    with translation.override(language):
        waiting = translation.ngettext("%(n)s waiting", "%(n)s waiting", 1) % {"n": 1}
        return {
            "link": f"{translation.gettext('My games')}, {waiting}",
            "limit": translation.gettext("Turn-based: %(hours)s h per decision") % {"hours": 48},
            "turn": translation.gettext("Your turn"),
        }


async def tab_to(page, selector: str, presses: int = 40) -> None:
    """Press Tab until the element `selector` has the focus."""
    for _ in range(presses):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"() => document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
async def test_my_games_on_a_phone_lists_the_waiting_table_first(daphne_server, chromium, locale):
    server = daphne_server
    language = locale[:2]
    words = expected(language)
    name = f"mine{language}"
    context = await chromium.new_context(locale=locale, viewport=PHONE, has_touch=True)
    try:
        page = await context.new_page()
        await sign_up(page, server, name, "Alice")
        table_id = server.shell(SETUP.format(name=name, other=f"bob{language}")).split()[-1]
        await page.goto(f"{server.url}/")
        assert await page.get_attribute("html", "lang") == language
        link = page.get_by_role("link", name=words["link"], exact=True)
        snapshot = await page.locator("nav").aria_snapshot()
        assert await link.count() == 1, snapshot
        # The keyboard reaches "My games" and opens it.
        await tab_to(page, "a.my-games-link")
        await page.keyboard.press("Enter")
        await page.wait_for_url(f"{server.url}/my-games/")
        assert await page.get_attribute("a.my-games-link", "aria-current") == "page"
        first = page.locator("li.my-game").first
        assert await first.get_attribute("data-table") == table_id
        text = await first.inner_text()
        assert "By mail" in text and words["turn"] in text and words["limit"] in text
        assert "Newer open table" in await page.locator("li.my-game").nth(1).inner_text()
        assert await page.evaluate(WIDEST) <= 0
        box = await first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        # And from the list, the table itself.
        await tab_to(page, f"li.my-game a[href='/tables/{table_id}/']")
        await page.keyboard.press("Enter")
        await page.wait_for_url(f"{server.url}/tables/{table_id}/")
        assert words["limit"] in await page.inner_text("main")
    finally:
        await context.close()
