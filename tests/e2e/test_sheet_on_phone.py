"""The score sheet on a phone (issue 32, item 8), in a real Chromium against the real daphne
server: the paper tables of a club evening of 2 rounds a game, one of 5 players and one of
4, all with long names; at 390 px, in English and in French, each sheet starts with 2
lines, every player's column (its name and its inputs) is on the screen without scrolling
sideways, each name is shown whole, the keyboard goes from seat to seat along a line; the
sheet entered on the phone shows the same way; on a desktop the names stand across."""

import json

import pytest

from tests.e2e.helpers import log_in
from tests.e2e.test_play_in_browser import DESKTOP, PASSWORD, PHONE, TIMEOUT_MS

pytestmark = pytest.mark.e2e

NAMES = {
    "ana": "Anastasia",
    "ber": "Bérénice",
    "max": "Maximilien",
    "gwe": "Gwendoline",
    "chr": "Christophe",
    "ele": "Éléonore",
    "mar": "Marguerite",
    "the": "Théophile",
    "jb": "Jean-Baptiste",
}

LEAGUE = f"""
import datetime
from django.utils import timezone
from accounts.models import User
from leagues.models import League, Membership, Season
league = League.objects.create(name="Club", slug="club")
for name, shown in {NAMES!r}.items():
    user = User.objects.create_user(name, f"{{name}}@example.org", {PASSWORD!r},
                                    display_name=shown)
    Membership.objects.create(league=league, user=user, status="active")
league.admins.add(User.objects.get(username="ana"))
Season.objects.create(league=league, name="2026",
    starts_on=timezone.localdate() - datetime.timedelta(days=9), min_games=1)
"""

# An evening of all the league, 2 rounds a game: a table of 5 and one of 4, on paper.
EVENING = """
import json
from django.utils import timezone
from accounts.models import User
from leagues import services
from leagues.models import Evening, Season
evening = Evening.objects.create(season=Season.objects.get(), date=timezone.localdate(),
    min_table_size=4, table_size=5, game_rounds=2)
evening.players.set(User.objects.all())
tables = services.seating_generate(event=evening, seed=7)
for table in tables:
    services.table_to_paper(event=evening, slot_id=table.evening_slot.pk)
print(json.dumps({
    "tables": {
        str(table.seats.count()): {
            "id": table.pk,
            "names": [s.user.display_name for s in table.seats.order_by("position")],
        }
        for table in tables
    },
    "users": {u.username: u.pk for u in User.objects.all()},
}))
"""

# Where each column of the grid is, and whether its name is shown whole.
MEASURE = """() => {
    const grid = document.querySelector('table.sheet-grid');
    const frame = grid.parentElement;
    const heads = [...grid.querySelectorAll('thead .sheet-name')].map((th) => {
        const box = th.getBoundingClientRect();
        return {text: th.innerText.trim(), left: box.left, right: box.right,
                whole: th.scrollWidth <= th.clientWidth && th.scrollHeight <= th.clientHeight};
    });
    const cells = [...grid.querySelectorAll('tbody input.cell')].map((input) => {
        const box = input.getBoundingClientRect();
        return {id: input.id, left: box.left, right: box.right};
    });
    return {
        heads, cells,
        page: document.documentElement.scrollWidth,
        frame: [frame.scrollWidth, frame.clientWidth],
        upright: grid.classList.contains('upright'),
        viewport: window.innerWidth,
    };
}"""


def last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def league(daphne_server):
    daphne_server.shell(LEAGUE)
    return daphne_server


def assert_every_column_shows(measured: dict, names: list[str]):
    width = measured["viewport"]
    assert measured["page"] <= width, "the page scrolls sideways"
    assert measured["frame"][0] <= measured["frame"][1], "the grid scrolls sideways"
    assert [head["text"] for head in measured["heads"]] == names
    for head in measured["heads"]:
        assert head["whole"], f"{head['text']} is cut"
        assert head["left"] >= 0 and head["right"] <= width, f"{head['text']} is off screen"
    for cell in measured["cells"]:
        assert cell["left"] >= 0 and cell["right"] <= width, f"#{cell['id']} is off screen"


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
async def test_every_column_of_a_sheet_fits_a_phone(league, chromium, locale):
    server = league
    setup = last_json(server.shell(EVENING))
    tables = setup["tables"]
    assert sorted(tables) == ["4", "5"]
    context = await chromium.new_context(locale=locale, viewport=PHONE)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    await log_in(page, server, "ana")
    french = locale.startswith("fr")

    for size in ("5", "4"):
        table = tables[size]
        await page.goto(f"{server.url}/leagues/club/sheets/new/?table={table['id']}")
        assert await page.get_attribute("html", "lang") == ("fr" if french else "en")
        assert await page.inner_text("thead .sheet-head >> nth=0") == (
            "Manche" if french else "Round"
        )
        # The evening plays 2 rounds a game: 2 lines, each a number per player.
        assert await page.locator("tbody input.cell").count() == 2 * int(size)
        assert await page.locator("#id_line_1_0").count() == 1
        assert await page.locator("#id_line_2_0").count() == 0
        measured = await page.evaluate(MEASURE)
        assert_every_column_shows(measured, table["names"])
        # The keyboard goes along a line, seat after seat.
        await page.focus("#id_line_0_0")
        for seat in range(1, int(size)):
            await page.keyboard.press("Tab")
            focused = await page.evaluate("() => document.activeElement.id")
            assert focused == f"id_line_0_{seat}"

    # A player chosen for a seat heads its column, and the columns still fit.
    five, four = tables["5"], tables["4"]
    await page.goto(f"{server.url}/leagues/club/sheets/new/?table={five['id']}")
    newcomer = four["names"][0]
    user = next(name for name, shown in NAMES.items() if shown == newcomer)
    await page.select_option("#id_player_0", str(setup["users"][user]))
    names = [newcomer, *five["names"][1:]]
    assert_every_column_shows(await page.evaluate(MEASURE), names)
    await page.select_option("#id_player_0", "")
    empty = "Joueur 1" if french else "Player 1"
    assert_every_column_shows(await page.evaluate(MEASURE), [empty, *five["names"][1:]])

    # The sheet entered on the phone shows each column on it too.
    await page.goto(f"{server.url}/leagues/club/sheets/new/?table={five['id']}")
    heads = [[3, 8, 0, 12, 1], [6, 1, 9, 2, 4]]
    for line, values in enumerate(heads):
        for seat, value in enumerate(values):
            await page.fill(f"#id_line_{line}_{seat}", str(value))
    await page.click("form.sheet-form button[type=submit]")
    await page.wait_for_selector(".sheet-status")
    # The grid is laid out by sheet.js once the page and its fonts have loaded.
    await page.wait_for_load_state("load")
    await page.evaluate("() => document.fonts.ready.then(() => true)")
    assert "/sheets/" in page.url and "/new/" not in page.url
    assert_every_column_shows(await page.evaluate(MEASURE), five["names"])
    await context.close()

    # On a desktop, the names stand across their columns.
    context = await chromium.new_context(locale=locale, viewport=DESKTOP)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    await log_in(page, server, "ana")
    await page.goto(f"{server.url}/leagues/club/sheets/new/?table={four['id']}")
    measured = await page.evaluate(MEASURE)
    assert_every_column_shows(measured, four["names"])
    assert not measured["upright"]
    await context.close()
