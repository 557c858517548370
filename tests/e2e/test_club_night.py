"""A club night run in real browsers against the real daphne server (issue 24, "Done
when"): the league admin creates an evening of 9 present players in the Django admin,
seats them 5 + 4, replaces an absent player, starts both tables with one button, switches
one table to paper; its sheet is entered on a phone-size page and confirmed by its
players; the other table is played online. The standings, the evening's results page and
the TV view show both games; a correction of the paper sheet changes the standings and
leaves a history entry."""

import json

import pytest

from tests.e2e.helpers import log_in
from tests.e2e.test_play_in_browser import DESKTOP, PASSWORD, PHONE, TIMEOUT_MS

pytestmark = pytest.mark.e2e


NAMES = ["ana", "ben", "cleo", "dan", "eva", "fred", "gina", "hugo", "ines", "jo"]

SET_UP = f"""
import datetime, json
from django.utils import timezone
from accounts.models import User
from leagues.models import League, Membership, Season
league = League.objects.create(name="Club", slug="club")
for name in {NAMES!r}:
    user = User.objects.create_user(name, f"{{name}}@example.org", {PASSWORD!r},
                                    display_name=name.title())
    Membership.objects.create(league=league, user=user, status="active")
ana = User.objects.get(username="ana")
ana.is_staff = True
ana.save()
league.admins.add(ana)
season = Season.objects.create(league=league, name="2026",
    starts_on=timezone.localdate() - datetime.timedelta(days=9), min_games=1)
ids = {{u.username: u.pk for u in User.objects.all()}}
print(json.dumps({{"season": season.pk, "users": ids}}))
"""

NIGHT = """
import json
from leagues.models import Evening
evening = Evening.objects.get()
print(json.dumps([
    {"slot": s.pk, "table": s.table_id, "number": s.number, "status": s.table.status,
     "players": [seat.user.username for seat in s.table.seats.order_by("position") if seat.user],
     "bots": [seat.bot for seat in s.table.seats.all() if seat.bot]}
    for s in evening.seated_tables.select_related("table").order_by("number")
]))
"""

# The players of the online table leave it: the RULES §1.8 fallback plays their cards to
# the end of the game (playing a whole game in the browser is tested elsewhere).
PLAY_OUT = """
from games import services
from games.models import Table
table = Table.objects.get(pk={table})
for seat in table.seats.select_related("user"):
    if seat.user:
        services.seat_remove(table_id=table.pk, user=seat.user)
print(Table.objects.get(pk={table}).status)
"""

STANDINGS = """
import json
from leagues.models import Standing
print(json.dumps({s.user.username: [s.games, s.heads] for s in Standing.objects.all()}))
"""

PAPER_ENTRY = """
import json
from leagues.models import LeagueGame
entry = LeagueGame.objects.get(game__table_id={table})
print(json.dumps(entry.pk))
"""


def last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


async def test_a_club_night_from_the_admin_to_the_standings(daphne_server, chromium):
    server = daphne_server
    setup = last_json(server.shell(SET_UP))
    users = setup["users"]
    present = NAMES[:9]  # Jo stays home: he replaces an absent player later
    admin_context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
    admin = await admin_context.new_page()
    admin.set_default_timeout(TIMEOUT_MS)
    await log_in(admin, server, "ana")

    # The evening, in the admin: 9 present players, tables of 4 to 5, one round a game.
    await admin.goto(f"{server.url}/admin/leagues/evening/add/")
    await admin.select_option("#id_season", str(setup["season"]))
    await admin.fill("#id_date", "")
    await admin.click("#id_date + .datetimeshortcuts a")  # "Today"
    await admin.select_option("#id_players_from", [str(users[name]) for name in present])
    await admin.click("#id_players_add")
    await admin.fill("#id_min_table_size", "4")
    await admin.fill("#id_table_size", "5")
    await admin.fill("#id_game_rounds", "1")
    await admin.click("input[name=_continue]")
    await admin.wait_for_selector("#night")

    # Seat them: 5 + 4.
    await admin.click("button[value=seat]")
    await admin.wait_for_selector(".night-table")
    night = last_json(server.shell(NIGHT))
    assert sorted(len(t["players"]) for t in night) == [4, 5]
    five, four = sorted(night, key=lambda t: -len(t["players"]))

    # An absent player at the big table gives his seat to Jo.
    absent = five["players"][1]
    by = f"#by_{five['slot']}_{users[absent]}"
    await admin.select_option(by, f"user:{users['jo']}")
    await admin.click(f"button[value='replace:{five['slot']}:{users[absent]}']")
    await admin.wait_for_selector(".messagelist .success")
    night = {t["slot"]: t for t in last_json(server.shell(NIGHT))}
    assert "jo" in night[five["slot"]]["players"] and absent not in night[five["slot"]]["players"]

    # Both tables start with one button.
    await admin.click("button[value='start_round:1']")
    await admin.wait_for_selector(".messagelist .success")
    night = {t["slot"]: t for t in last_json(server.shell(NIGHT))}
    assert {t["status"] for t in night.values()} == {"playing"}

    # The small table plays with real cards.
    await admin.click(f"button[value='paper:{four['slot']}']")
    await admin.wait_for_selector(".messagelist .success")

    # Its sheet, on a phone: the admin enters it from the table's link.
    phone_context = await chromium.new_context(locale="en-US", viewport=PHONE)
    phone = await phone_context.new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    await log_in(phone, server, "ana")
    await phone.goto(f"{server.url}/leagues/club/sheets/new/?table={four['table']}&rounds=2")
    heads = [[3, 8, 0, 12], [6, 1, 9, 2]]
    for line, values in enumerate(heads):
        for seat, value in enumerate(values):
            await phone.fill(f"#id_line_{line}_{seat}", str(value))
    width = await phone.evaluate("() => document.querySelector('.sheet-form').scrollWidth")
    assert width <= PHONE["width"], "the sheet's form is wider than the phone"
    await phone.click("form.sheet-form button[type=submit]")
    await phone.wait_for_selector(".sheet-status")
    sheet_url = phone.url
    await phone_context.close()

    # Its players confirm it, each on their own phone (Ana, if she played there, did by
    # entering it).
    for username in four["players"]:
        if username == "ana":
            continue
        context = await chromium.new_context(locale="en-US", viewport=PHONE)
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        await log_in(page, server, username)
        await page.goto(f"{server.url}/players/{username}/")
        await page.click(".sheets-awaiting a")
        assert page.url == sheet_url
        await page.click("button[value=confirm]")
        await page.wait_for_selector(".sheet-status")
        await context.close()
    standings = last_json(server.shell(STANDINGS))
    for seat, username in enumerate(four["players"]):
        assert standings[username] == [1, heads[0][seat] + heads[1][seat]]

    # The big table is played online, to its end.
    assert server.shell(PLAY_OUT.format(table=five["table"])).strip().endswith("finished")
    standings = last_json(server.shell(STANDINGS))
    assert len(standings) == 9 and all(games == 1 for games, _heads in standings.values())

    # The standings, the evening's results and the TV show both games.
    await admin.goto(f"{server.url}/leagues/club/")
    html = await admin.content()
    for username in four["players"] + night[five["slot"]]["players"]:
        assert username.title() in html
    await admin.goto(f"{server.url}/admin/leagues/evening/")
    link = await admin.get_attribute("#result_list tbody tr a", "href")
    evening_id = int(link.rstrip("/").split("/")[-2])
    await admin.goto(f"{server.url}/leagues/club/evenings/{evening_id}/results/")
    results = await admin.content()
    assert "Jo" in results and four["players"][2].title() in results
    await admin.goto(f"{server.url}/leagues/club/evenings/{evening_id}/tv/?seconds=60")
    tv = await admin.content()
    for username in four["players"] + night[five["slot"]]["players"]:
        assert username.title() in tv

    # A correction of the paper sheet changes the standings and is kept.
    entry = last_json(server.shell(PAPER_ENTRY.format(table=four["table"])))
    await admin.goto(f"{server.url}/admin/leagues/leaguegame/{entry}/correct/")
    await admin.fill("#id_lines", "3 8 0 12\n6 1 19 2")
    await admin.fill("#id_reason", "Cleo's second round was misread")
    await admin.click("input[type=submit]")
    await admin.wait_for_selector(".messagelist .success")
    standings = last_json(server.shell(STANDINGS))
    assert standings[four["players"][2]] == [1, 0 + 19]
    await admin.goto(f"{server.url}/admin/leagues/leaguegame/{entry}/change/")
    assert "misread" in await admin.content()
    await admin_context.close()
