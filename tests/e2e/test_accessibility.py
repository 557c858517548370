"""axe-core in a real Chromium on the site's pages (issue 31, "Keyboard and screen readers").

axe-core comes from npm (package.json's devDependencies, pinned by package-lock.json) and
is laid into each page by Playwright from node_modules: it is never served to players.
Each page is checked with axe's default rules, at a phone's size in French and a desktop's
in English, and must have no violation of impact "serious" or "critical": the lobby, a
table of each game in play at the viewer's decision (with bots), the replay of a finished
game, a player's profile, a league's page and the rules (every game's section).
"""

import json

import pytest

from tests import servers as live
from tests.e2e.helpers import log_in
from tests.e2e.test_play_in_browser import DESKTOP, PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

AXE = live.ROOT / "node_modules" / "axe-core" / "axe.min.js"
SMALL_PHONE = {"width": 360, "height": 740}
SIZES = [
    pytest.param("fr-FR", SMALL_PHONE, id="fr-360x740"),
    pytest.param("en-US", DESKTOP, id="en-1280x900"),
]

SET_UP = f"""
import datetime, json
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Game
from games.six import engine as six
from leagues.models import League, Membership, Season, Standing
ana = User.objects.create_user("ana", "ana@example.org", {PASSWORD!r}, display_name="Ana")
ben = User.objects.create_user("ben", "ben@example.org", {PASSWORD!r}, display_name="Ben")
league = League.objects.create(name="Club", slug="club")
season = Season.objects.create(league=league, name="2026",
    starts_on=timezone.localdate() - datetime.timedelta(days=9), min_games=1)
for heads, user in enumerate([ana, ben]):
    Membership.objects.create(league=league, user=user, status="active")
    Standing.objects.create(season=season, user=user, games=1, rounds=1, heads=heads)
# A finished game of Six, for its replay: Ana plays her first legal card, bots the rest.
table = services.table_create(user=ana, kind="six", seats_count=3,
    options={{"deck": 40, "target": 5}}, time_limit=0, deal_seed=3, name="Replayed")
for bot in ("six_heuristic", "six_random"):
    services.seat_add_bot(table_id=table.pk, user=ana, bot=bot)
services.table_start(table_id=table.pk, user=ana)
for _ in range(300):
    state = six.load(Game.objects.get(table=table).state)
    if six.is_over(state):
        break
    card = six.legal(state, 0)[0]["card"]
    services.game_decide(table_id=table.pk, user=ana, decision={{"type": "select", "card": card}})
assert six.is_over(six.load(Game.objects.get(table=table).state))
print(json.dumps({{"finished": table.pk}}))
"""

TABLE = """
from accounts.models import User
from games import services
ana = User.objects.get(username="ana")
table = services.table_create(user=ana, kind={kind!r}, seats_count=3, options={options!r},
    time_limit=30, name="Axe", deal_seed=5)
for bot in {bots!r}:
    services.seat_add_bot(table_id=table.pk, user=ana, bot=bot)
services.table_start(table_id=table.pk, user=ana)
print(table.pk)
"""

GAMES = {
    "nimmt": {"options": {"end": "rounds", "rounds": 1}, "bots": ["expert", "random"]},
    "surprise": {"options": {"live_scores": True}, "bots": ["surprise_heuristic"] * 2},
    "six": {"options": {"deck": 40, "target": 30}, "bots": ["six_heuristic", "six_random"]},
}

# The viewer's decision, as the page shows it: a card of the hand to play.
DECISION = "#hand.awaited button[data-card]"

RUN_AXE = """async () => {
  const result = await axe.run(document);
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))}));
}"""


@pytest.fixture(scope="module")
def site(daphne_server):
    out = daphne_server.shell(SET_UP)
    return json.loads(out.strip().splitlines()[-1])


async def violations(page) -> list[dict]:
    await page.add_script_tag(path=str(AXE))
    return await page.evaluate(RUN_AXE)


async def check(chromium, server, locale, size, path, ready=None):
    # The site's Content-Security-Policy allows its own scripts only: Playwright lays
    # axe-core in as an inline script, which the test's browser alone lets through.
    context = await chromium.new_context(locale=locale, viewport=size, bypass_csp=True)
    # Reveals are not played: axe reads the page as it stands.
    await context.add_init_script("localStorage.setItem('sixclub.pref.still', '1');")
    try:
        page = await context.new_page()
        await log_in(page, server, "ana")
        response = await page.goto(f"{server.url}{path}")
        assert response.status == 200, path
        assert await page.get_attribute("html", "lang") == locale[:2]
        if ready:
            await page.wait_for_selector(ready, timeout=TIMEOUT_MS)
        found = await violations(page)
        assert found == [], f"{path} at {size} in {locale}:\n" + json.dumps(found, indent=1)
    finally:
        await context.close()


@pytest.mark.parametrize(("locale", "size"), SIZES)
@pytest.mark.parametrize("kind", list(GAMES))
async def test_a_table_in_play_at_a_decision_has_no_serious_violation(
    daphne_server, chromium, site, kind, locale, size
):
    game = GAMES[kind]
    table_id = int(daphne_server.shell(TABLE.format(kind=kind, **game)).strip().splitlines()[-1])
    await check(chromium, daphne_server, locale, size, f"/tables/{table_id}/", ready=DECISION)


@pytest.mark.parametrize(("locale", "size"), SIZES)
@pytest.mark.parametrize("page_name", ["lobby", "replay", "profile", "league", "rules"])
async def test_the_sites_pages_have_no_serious_violation(
    daphne_server, chromium, site, page_name, locale, size
):
    path = {
        "lobby": "/tables/",
        "replay": f"/tables/{site['finished']}/replay/",
        "profile": "/players/ana/",
        "league": "/leagues/club/",
        "rules": "/rules/",
    }[page_name]
    await check(chromium, daphne_server, locale, size, path)
