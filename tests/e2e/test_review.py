"""The post-game review in a browser (issue 35): a finished game's review at 390×844 and
1280×900, in English and in French: her summary and decisions are readable, nothing is
wider than the screen, and the keyboard reaches a decision's link to the replay, which
shows her estimates at that step."""

import pytest
from django.utils import translation

from tests.e2e.test_play_in_browser import PHONE, note_console_error, sign_up

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 900}

SETUP = """
from accounts.models import User
from games import engine, reviews, services
from games.models import Game
alice = User.objects.get(username={name!r})
bob = User.objects.create_user({other!r}, email="{other}@example.org", password="x-Unused-77")
table = services.table_create(
    user=alice, seats_count=2, options={{"end": "rounds", "rounds": 1}}, name="Reviewed",
    deal_seed=11,
)
services.seat_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=alice)
rules = engine.get("nimmt")
users = {{0: alice, 1: bob}}
while not rules.is_over(state := rules.load(Game.objects.get(table=table).state)):
    seat = min(rules.to_act(state))
    services.game_decide(table_id=table.pk, user=users[seat], decision=rules.fallback(state, seat))
print(table.pk)
"""

FOCUSED = "() => document.activeElement.matches('#review .review-head a')"
WIDEST = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def words(language: str) -> dict:
    with translation.override(language):
        return {
            "title": translation.gettext("Your review"),
            "pending": translation.gettext("Your review is being prepared."),
        }


@pytest.mark.parametrize(
    "locale,viewport", [("en-US", PHONE), ("fr-FR", PHONE), ("en-US", DESKTOP)]
)
async def test_a_finished_game_shows_her_review(daphne_server, chromium, locale, viewport):
    server = daphne_server
    language = locale[:2]
    expected = words(language)
    name = f"rev{language}{viewport['width']}"
    context = await chromium.new_context(locale=locale, viewport=viewport)
    errors = []
    try:
        page = await context.new_page()
        page.on("console", lambda message: note_console_error(errors, message))
        await sign_up(page, server, name, "Alice")
        table_id = server.shell(SETUP.format(name=name, other=f"bob{name}")).split()[-1]
        await page.goto(f"{server.url}/tables/{table_id}/")
        # No worker runs here: the task waits in the queue, and the page says so.
        pending = page.locator("#review")
        await pending.wait_for()
        assert expected["pending"] in await pending.inner_text()
        out = server.manage("review_game", table_id)
        assert "2 seat(s) reviewed" in out
        await page.reload()
        review = page.locator("#review")
        await review.wait_for()
        heading = page.get_by_role("heading", name=expected["title"], exact=True)
        assert await heading.is_visible()
        assert await page.locator("#review .review-summary").is_visible()
        assert await page.locator("#review .review-decision").count() >= 1
        assert await page.evaluate(WIDEST) <= 0, "the page is wider than the screen"
        # The keyboard reaches the first decision's link to the replay and opens it.
        link = page.locator("#review .review-head a").first
        href = await link.get_attribute("href")
        for _ in range(200):
            await page.keyboard.press("Tab")
            if await page.evaluate(FOCUSED):
                break
        else:
            raise AssertionError("Tab never reached the review's link")
        focused = await page.evaluate("() => document.activeElement.getAttribute('href')")
        assert focused == href
        await page.keyboard.press("Enter")
        await page.wait_for_url(f"**{href}")
        step_review = page.locator("#replay-review")
        await step_review.wait_for()
        assert await step_review.locator(".review-option.mine").count() >= 1
        assert await page.evaluate(WIDEST) <= 0, "the replay is wider than the screen"
        assert not errors, errors
    finally:
        await context.close()
