"""A leaderboard on a phone (issue 34): at 390×844, in English and in French, the lobby's
link leads to it; its table stays inside the page (the page never scrolls sideways), the
viewer's own row is marked, and axe-core finds no serious violation. The rated games are
score sheets of games played on paper, entered through the games' services."""

import json

import pytest

from tests.e2e.helpers import log_in
from tests.e2e.test_accessibility import violations
from tests.e2e.test_play_in_browser import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

# Four players, six games on paper between each two of them: everyone is listed (five
# rated games are needed). Ana, the viewer, has a long name.
SET_UP = f"""
import itertools, json
from accounts.models import User
from games import services
from leagues.models import SiteRating
names = [("ana", "Anastasia-Maximilienne de la Tour"), ("ben", "Ben"), ("cy", "Cy"),
         ("dee", "Dee")]
users = [User.objects.create_user(u, u + "@example.org", {PASSWORD!r}, display_name=d)
         for u, d in names]
for round_ in range(6):
    for a, b in itertools.combinations(users, 2):
        table = services.table_create(user=a, seats_count=2, options={{}})
        services.seat_join(table_id=table.pk, user=b)
        services.table_paper(table_id=table.pk)
        services.paper_result(table_id=table.pk, lines=[[(round_ + a.pk) % 7, (b.pk * 3) % 7]])
print(json.dumps(SiteRating.objects.filter(kind="nimmt").count()))
"""

# Is anything wider than the page? The page's own width, and the widest box outside the
# leaderboard's scrolling one.
OVERFLOW = """() => ({
  page: document.documentElement.scrollWidth,
  table: document.querySelector('.leaderboard-scroll').getBoundingClientRect().right,
})"""


@pytest.fixture(scope="module")
def rated(daphne_server):
    return json.loads(daphne_server.shell(SET_UP).strip().splitlines()[-1])


@pytest.mark.parametrize(("locale", "point"), [("en-US", "."), ("fr-FR", ",")], ids=["en", "fr"])
async def test_a_leaderboard_fits_a_phone_and_marks_the_viewers_row(
    daphne_server, chromium, rated, locale, point
):
    assert rated == 4
    # axe-core is laid in as an inline script, which the site's policy would refuse.
    context = await chromium.new_context(locale=locale, viewport=PHONE, bypass_csp=True)
    try:
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        await log_in(page, daphne_server, "ana")
        await page.goto(f"{daphne_server.url}/tables/")
        await page.locator('.lobby a[href="/leaderboards/"]').click()
        await page.wait_for_selector(".leaderboard-table")
        assert page.url.endswith("/leaderboards/")
        assert await page.get_attribute("html", "lang") == locale[:2]
        rows = page.locator(".leaderboard-table tbody tr")
        assert await rows.count() == 4
        me = page.locator(".leaderboard-table tr.me")
        assert await me.count() == 1
        assert "Anastasia" in await me.inner_text()
        # The rating with one decimal, written the reader's way.
        rating = await me.locator("td").nth(2).inner_text()
        assert point in rating and len(rating.split(point)[1]) == 1
        assert await page.locator('.season-picker a[aria-current="page"]').count() == 1
        sizes = await page.evaluate(OVERFLOW)
        assert sizes["page"] <= PHONE["width"] and sizes["table"] <= PHONE["width"], sizes
        # The table's box is reached with the keyboard (it may scroll sideways).
        await page.locator(".leaderboard-scroll").focus()
        assert await page.evaluate(
            "document.activeElement.classList.contains('leaderboard-scroll')"
        )
        found = await violations(page)
        assert found == [], json.dumps(found, indent=1)
    finally:
        await context.close()
