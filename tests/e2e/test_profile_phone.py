"""A player's page on a phone (issue 34, "Profiles worth opening"), in a real Chromium at
390×844 against the real daphne server, in English and in French:
- after one lost game: her figures and that game's rank, but no rating chart (a sentence
  says when it comes) and no "Best games";
- after 20 games: the rating chart, whose text (scale, dates, caption) is at least 12 px
  on the screen, her figures, and the head to head asked through the page's form with
  the keyboard;
- nothing is wider than the phone, and axe-core finds no serious violation.
The games are played on paper through the real services."""

import json

import pytest

from tests.e2e.test_accessibility import violations
from tests.e2e.test_play_in_browser import PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

# Rex loses his only game to Quin; Pia plays 20 against Quin, some won, some lost, some
# level (the same heads share the first place).
SET_UP = f"""
import json
from accounts.models import User
from games import services

def user(name, shown):
    return User.objects.create_user(name, f"{{name}}@example.org", {PASSWORD!r},
                                    display_name=shown)

pia, quin, rex = user("pia", "Pia"), user("quin", "Quin"), user("rex", "Rex")

def paper_game(players, heads):
    table = services.table_create(user=players[0], kind="nimmt", seats_count=len(players),
        options={{"end": "rounds", "rounds": 1}}, name=f"Paper {{heads}}")
    services.table_paper(table_id=table.pk)
    services.paper_seats(table_id=table.pk, users=players)
    services.paper_result(table_id=table.pk, lines=[heads])

paper_game([rex, quin], [9, 3])
ahead = behind = level = 0
for number in range(20):
    mine = (number * 7) % 11
    theirs = 10 - mine if number % 6 else mine
    paper_game([pia, quin], [mine, theirs])
    ahead += mine < theirs
    behind += mine > theirs
    level += mine == theirs
print(json.dumps({{"ahead": ahead, "behind": behind, "level": level}}))
"""

# Every text of the rating chart, with its size on the screen.
CHART_TEXT = """() => [...document.querySelectorAll(
    'figure.chart .chart-scale span, figure.chart .chart-span span, figure.chart figcaption')]
  .filter(element => element.getClientRects().length > 0)
  .map(element => {
    const r = element.getBoundingClientRect();
    return {text: element.textContent.trim().slice(0, 40),
            size: parseFloat(getComputedStyle(element).fontSize),
            height: r.height, left: r.left, right: r.right};
  })"""

WIDTH = "() => document.documentElement.scrollWidth"

WORDS = {
    "en-US": {
        "lost": "2nd of 2",
        "best": "Best games",
        "no_chart": "from 3 rated games on",
        "played": "Games played",
        "compare": "Compare with a player",
        "h2h": "Pia and Quin: 20 games, Pia ahead in {ahead}, Quin ahead in {behind}, "
        "level in {level}",
    },
    "fr-FR": {
        "lost": "2e sur 2",
        "best": "Meilleures parties",
        "no_chart": "à partir de 3 parties cotées",
        "played": "Parties jouées",
        "compare": "Comparer avec un joueur",
        "h2h": "Pia et Quin : 20 parties, Pia devant {ahead} fois, Quin devant {behind} fois, "
        "à égalité {level} fois",
    },
}


@pytest.fixture(scope="module")
def games(daphne_server):
    return json.loads(daphne_server.shell(SET_UP).strip().splitlines()[-1])


@pytest.mark.parametrize("locale", list(WORDS))
async def test_a_profile_on_a_phone_after_one_game_and_after_twenty(
    daphne_server, chromium, games, locale
):
    words = WORDS[locale]
    # Playwright lays axe-core in as an inline script, which the site's CSP would refuse.
    context = await chromium.new_context(locale=locale, viewport=PHONE, bypass_csp=True)
    try:
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)

        response = await page.goto(f"{daphne_server.url}/players/rex/")
        assert response.status == 200
        assert await page.get_attribute("html", "lang") == locale[:2]
        text = await page.inner_text("main")
        assert words["lost"] in text and words["no_chart"] in text
        assert words["best"] not in text
        assert await page.locator("figure.chart").count() == 0
        assert await page.evaluate(WIDTH) <= PHONE["width"]

        await page.goto(f"{daphne_server.url}/players/pia/")
        assert await page.locator("figure.chart").count() == 1
        texts = await page.evaluate(CHART_TEXT)
        assert len(texts) >= 5, texts  # the highest, the lowest, two dates, the caption
        for label in texts:
            assert label["size"] >= 12 and label["height"] >= 12, label
            assert label["left"] >= 0 and label["right"] <= PHONE["width"], label
        figures = page.locator(".profile-figures")
        assert words["played"] in await figures.inner_text()
        assert await figures.locator("dd").first.inner_text() == "20"
        assert words["best"] in await page.inner_text("main")
        assert await page.evaluate(WIDTH) <= PHONE["width"]

        # The head to head, with the keyboard: the name field is labelled, Enter sends it.
        assert await page.inner_text("label[for=id_vs]") == words["compare"]
        await page.focus("#id_vs")
        await page.keyboard.type("quin")
        async with page.expect_navigation():
            await page.keyboard.press("Enter")
        assert "vs=quin" in page.url
        summary = await page.inner_text(".head-to-head-summary")
        assert summary == words["h2h"].format(**games)
        assert await page.locator(".head-to-head-game li").count() == 10
        assert await page.evaluate(WIDTH) <= PHONE["width"]
        assert await violations(page) == []
    finally:
        await context.close()
