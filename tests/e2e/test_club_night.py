"""A club night run in real browsers against the real daphne server (issues 24 and 32,
"Done when"): the league admin creates an evening of 9 present players in the Django
admin, seats them 5 + 4, replaces an absent player, starts both tables with one button,
switches one table to paper; its sheet, dated three days back, is entered on a
phone-size page; one of its players confirms it, another disputes it, and the organiser
confirms it for all, so that it counts once, on the day it was played; the other table is
played online. Once the first round is over the organiser seats the second: the one who
came instead of the absent player is seated, the absent player is not. The standings,
the evening's results page and the TV view show both games; a correction of the paper
sheet changes the standings and leaves a history entry.

A duplicate tournament of Six is seated from the night panel at two tables of four, both
started with one button and played out: both tables play the same hands, and the results
page shows a table's scores only once both have finished."""

import datetime
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
ids = {{u.username: u.pk for u in User.objects.filter(username__in={NAMES!r})}}
print(json.dumps({{"season": season.pk, "users": ids,
                  "today": timezone.localdate().isoformat()}}))
"""

# The evening's present players and its seated tables, every round's.
NIGHT = """
import json
from leagues.models import Evening
evening = Evening.objects.get()
print(json.dumps({
    "present": sorted(user.username for user in evening.players.all()),
    "tables": [
        {"slot": s.pk, "round": s.round, "table": s.table_id, "number": s.number,
         "status": s.table.status,
         "players": [seat.user.username for seat in s.table.seats.order_by("position")
                     if seat.user],
         "bots": [seat.bot for seat in s.table.seats.all() if seat.bot]}
        for s in evening.seated_tables.select_related("table").order_by("round", "number")
    ],
}))
"""

# The players of an online table leave it: the RULES §1.8 fallback plays their cards to
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
print(json.dumps({s.user.username: [s.games, s.heads]
                  for s in Standing.objects.filter(season__league__slug="club")}))
"""

# The paper table's game in the season: how many entries, the day it finished (the
# club's time) and the players' "last played".
PAPER_ENTRY = """
import json
from django.utils import timezone
from leagues.models import LeagueGame, ScoreSheet, Standing
entries = list(LeagueGame.objects.filter(game__table_id={table}).select_related("game"))
players = ScoreSheet.objects.get(table_id={table}).table.seats.values_list("user_id", flat=True)
print(json.dumps({{
    "entries": [entry.pk for entry in entries],
    "finished_on": [timezone.localtime(entry.finished_at).date().isoformat() for entry in entries],
    "game_finished_on": [timezone.localtime(entry.game.finished_at).date().isoformat()
                         for entry in entries],
    "last_played": {{s.user.username: timezone.localtime(s.last_played).date().isoformat()
                    for s in Standing.objects.filter(user_id__in=list(players))}},
}}))
"""


def last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


def round_tables(server, number: int) -> list[dict]:
    return [t for t in last_json(server.shell(NIGHT))["tables"] if t["round"] == number]


async def phone_of(chromium, server, username):
    """A phone-size browser context signed in as `username` (the caller closes it), and
    its page."""
    context = await chromium.new_context(locale="en-US", viewport=PHONE)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    await log_in(page, server, username)
    return context, page


async def seat_names(page, number: int) -> list[str]:
    """The names in the seats of round `number`'s tables, as the night panel shows them."""
    return await page.locator(
        f".night-round[data-round='{number}'] .night-table tbody tr td:nth-child(2)"
    ).all_inner_texts()


async def test_a_club_night_from_the_admin_to_the_standings(daphne_server, chromium):
    server = daphne_server
    setup = last_json(server.shell(SET_UP))
    users = setup["users"]
    # The paper table's sheet is dated three days back, within the season (9 days old).
    played_on = datetime.date.fromisoformat(setup["today"]) - datetime.timedelta(days=3)
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
    evening_url = admin.url

    # Seat them: 5 + 4.
    await admin.click("button[value=seat]")
    await admin.wait_for_selector(".night-table")
    night = round_tables(server, 1)
    assert sorted(len(t["players"]) for t in night) == [4, 5]
    five, four = sorted(night, key=lambda t: -len(t["players"]))

    # An absent player at the big table gives his seat to Jo.
    absent = five["players"][1]
    by = f"#by_{five['slot']}_{users[absent]}"
    await admin.select_option(by, f"user:{users['jo']}")
    await admin.click(f"button[value='replace:{five['slot']}:{users[absent]}']")
    await admin.wait_for_selector(".messagelist .success")
    night = {t["slot"]: t for t in round_tables(server, 1)}
    assert "jo" in night[five["slot"]]["players"] and absent not in night[five["slot"]]["players"]

    # Both tables start with one button.
    await admin.click("button[value='start_round:1']")
    await admin.wait_for_selector(".messagelist .success")
    night = {t["slot"]: t for t in round_tables(server, 1)}
    assert {t["status"] for t in night.values()} == {"playing"}

    # The small table plays with real cards.
    await admin.click(f"button[value='paper:{four['slot']}']")
    await admin.wait_for_selector(".messagelist .success")

    # Its sheet, on a phone: the admin enters it from the table's link, a few days later.
    phone_context, phone = await phone_of(chromium, server, "ana")
    await phone.goto(f"{server.url}/leagues/club/sheets/new/?table={four['table']}&rounds=2")
    await phone.fill("#id_played_on", played_on.isoformat())
    heads = [[3, 8, 0, 12], [6, 1, 9, 2]]
    for line, values in enumerate(heads):
        for seat, value in enumerate(values):
            await phone.fill(f"#id_line_{line}_{seat}", str(value))
    width = await phone.evaluate("() => document.querySelector('.sheet-form').scrollWidth")
    assert width <= PHONE["width"], "the sheet's form is wider than the phone"
    await phone.click("form.sheet-form button[type=submit]")
    await phone.wait_for_selector(".sheet-status.sheet-pending")
    sheet_url = phone.url
    await phone_context.close()

    # Its players answer, each on their own phone (Ana, if she played there, did by
    # entering it): the first confirms it, the second says it is wrong.
    confirming, disputing, *_silent = [name for name in four["players"] if name != "ana"]
    context, page = await phone_of(chromium, server, confirming)
    await page.goto(f"{server.url}/players/{confirming}/")
    await page.click(".sheets-awaiting a")
    assert page.url == sheet_url
    await page.click("button[value=confirm]")
    await page.wait_for_selector(".sheet-status.sheet-pending")
    await context.close()
    context, page = await phone_of(chromium, server, disputing)
    await page.goto(f"{server.url}/players/{disputing}/")
    await page.click(".sheets-awaiting a")
    assert page.url == sheet_url
    await page.fill("#reason", "I took 2 heads in the second round, not 9")
    await page.click("button[value=dispute]")
    await page.wait_for_selector(".sheet-status.sheet-disputed")
    await context.close()
    standings = last_json(server.shell(STANDINGS))
    assert all(standings.get(name, [0, 0])[0] == 0 for name in four["players"])

    # The organiser reads why, and confirms it for all: it counts, and the button is gone.
    await admin.goto(sheet_url)
    await admin.wait_for_selector(".sheet-status.sheet-disputed")
    assert "not 9" in await admin.inner_text("p.errors")
    await admin.click("text=Confirm for all players")
    await admin.wait_for_selector(".sheet-status.sheet-confirmed")
    assert "it counts" in await admin.inner_text(".messages")
    assert await admin.locator("text=Confirm for all players").count() == 0
    standings = last_json(server.shell(STANDINGS))
    for seat, username in enumerate(four["players"]):
        assert standings[username] == [1, heads[0][seat] + heads[1][seat]]
    # Once, on the day written on the sheet.
    paper = last_json(server.shell(PAPER_ENTRY.format(table=four["table"])))
    assert len(paper["entries"]) == 1
    assert paper["finished_on"] == paper["game_finished_on"] == [played_on.isoformat()]
    assert paper["last_played"] == {name: played_on.isoformat() for name in four["players"]}

    # The big table is played online, to its end: the first round is over.
    assert server.shell(PLAY_OUT.format(table=five["table"])).strip().endswith("finished")
    standings = last_json(server.shell(STANDINGS))
    assert len(standings) == 9 and all(games == 1 for games, _heads in standings.values())

    # The organiser seats the second round from the night panel: Jo, who came, is seated;
    # the player he replaced counts as absent and is not.
    await admin.goto(evening_url)
    await admin.wait_for_selector("#night")
    assert await admin.locator(".night-round[data-round='2']").count() == 0
    await admin.click("button[value=seat]")
    await admin.wait_for_selector(".night-round[data-round='2'] .night-table")
    assert "9 present players." in await admin.inner_text("#night")
    seated = await seat_names(admin, 2)
    assert "Jo" in seated and absent.title() not in seated and len(seated) == 9
    second = round_tables(server, 2)
    assert sorted(len(t["players"]) for t in second) == [4, 5]
    seated = [name for t in second for name in t["players"]]
    assert "jo" in seated and absent not in seated
    assert sorted(seated) == sorted([*(set(present) - {absent}), "jo"])
    assert absent not in last_json(server.shell(NIGHT))["present"]

    # The standings, the evening's results and the TV show both games; the paper game's
    # players last played on the sheet's day, once.
    await admin.goto(f"{server.url}/leagues/club/")
    html = await admin.content()
    for username in four["players"] + night[five["slot"]]["players"]:
        assert username.title() in html
    rows = {
        row.split("\t")[1]: row
        for row in await admin.locator(".standings-table tbody tr").all_inner_texts()
    }
    for username in four["players"]:
        assert rows[username.title()].split("\t")[2] == "1"
        assert played_on.strftime("%d/%m/%Y") in rows[username.title()]
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
    entry = paper["entries"][0]
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


SIX_NAMES = ["sam", "tom", "uma", "vic", "wes", "xia", "yan", "zoe"]

SIX_SET_UP = f"""
import datetime, json
from django.utils import timezone
from accounts.models import User
from leagues.models import League, Membership, Season
league = League.objects.create(name="Six club", slug="six-club")
for name in {SIX_NAMES!r}:
    user = User.objects.create_user(name, f"{{name}}@example.org", {PASSWORD!r},
                                    display_name=name.title())
    Membership.objects.create(league=league, user=user, status="active")
sam = User.objects.get(username="sam")
sam.is_staff = True
sam.save()
league.admins.add(sam)
season = Season.objects.create(league=league, name="Six 2026", kind="six",
    starts_on=timezone.localdate() - datetime.timedelta(days=9), min_games=1)
ids = {{u.username: u.pk for u in User.objects.filter(username__in={SIX_NAMES!r})}}
print(json.dumps({{"season": season.pk, "users": ids}}))
"""

# The tournament's tables, and each one's game: its options, its deal seed, the hands it
# played (in its result and on its score sheet) and the deals of those hands.
CUP = """
import json
from games import engine
from games.models import Game
from leagues.models import Tournament
cup = Tournament.objects.get(season__league__slug="six-club")
tables = []
for slot in cup.seated_tables.select_related("table").order_by("round", "number"):
    table = slot.table
    game = Game.objects.filter(table=table).first()
    finished = game is not None and game.result is not None and game.finished_at is not None
    tables.append({
        "number": slot.number, "table": table.pk, "status": table.status,
        "options": table.options, "deal_seed": table.deal_seed,
        "players": [seat.user.username for seat in table.seats.all() if seat.user],
        "hands": len(game.result["rounds"]) if finished else None,
        "sheet_hands": game.round_scores.values("round").distinct().count() if game else 0,
        "deals": [deal for deal, _turns in engine.get("six").load(game.state).history]
                 if finished else None,
    })
print(json.dumps({"id": cup.pk, "tables": tables}))
"""


async def test_a_duplicate_six_round_plays_the_same_hands_at_both_tables(daphne_server, chromium):
    server = daphne_server
    setup = last_json(server.shell(SIX_SET_UP))
    users = setup["users"]
    admin_context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
    admin = await admin_context.new_page()
    admin.set_default_timeout(TIMEOUT_MS)
    await log_in(admin, server, "sam")

    # The tournament, in the admin: a duplicate round of Six for 8 present players.
    await admin.goto(f"{server.url}/admin/leagues/tournament/add/")
    await admin.fill("#id_name", "Duplicate cup")
    await admin.select_option("#id_season", str(setup["season"]))
    await admin.fill("#id_date", "")
    await admin.click("#id_date + .datetimeshortcuts a")  # "Today"
    await admin.fill("#id_rounds", "1")
    await admin.check("#id_duplicate")
    await admin.select_option("#id_players_from", [str(users[name]) for name in SIX_NAMES])
    await admin.click("#id_players_add")
    await admin.fill("#id_min_table_size", "4")
    await admin.fill("#id_table_size", "4")
    await admin.click("input[name=_continue]")
    await admin.wait_for_selector("#night")

    # Seated from the night panel: two tables of four, started with one button.
    await admin.click("button[value=seat]")
    await admin.wait_for_selector(".night-round[data-round='1'] .night-table")
    sizes = await admin.locator(".night-table").evaluate_all(
        "tables => tables.map(table => table.querySelectorAll('tbody tr').length)"
    )
    assert sizes == [4, 4]
    await admin.click("button[value='start_round:1']")
    await admin.wait_for_selector(".messagelist .success")
    cup = last_json(server.shell(CUP))
    one, two = cup["tables"]
    assert {one["status"], two["status"]} == {"playing"}
    assert one["deal_seed"] == two["deal_seed"] and one["options"] == two["options"]
    assert one["options"]["end"] == "hands"
    assert sorted(one["players"] + two["players"]) == sorted(SIX_NAMES)

    # The first table plays out: its scores stay hidden while the other plays the deals.
    results_url = f"{server.url}/leagues/six-club/tournaments/{cup['id']}/results/"
    assert server.shell(PLAY_OUT.format(table=one["table"])).strip().endswith("finished")
    await admin.goto(results_url)
    await admin.wait_for_selector(".result-table[data-table='2']")
    assert await admin.locator(".result-table .ranking").count() == 0
    assert "No game finished yet." in await admin.inner_text(".results")
    shown = " ".join(await admin.locator(".result-table").all_inner_texts())
    assert not any(name.title() in shown for name in one["players"] + two["players"])

    # The second table plays out: both tables' scores show, over the same hands.
    assert server.shell(PLAY_OUT.format(table=two["table"])).strip().endswith("finished")
    await admin.goto(results_url)
    await admin.wait_for_selector(".result-table[data-table='2'] .ranking")
    for table in (one, two):
        names = await admin.locator(
            f".result-table[data-table='{table['number']}'] .ranking tbody td:nth-child(2)"
        ).all_inner_texts()
        assert sorted(name.strip(" ★") for name in names) == sorted(
            name.title() for name in table["players"]
        )
    cup = last_json(server.shell(CUP))
    one, two = cup["tables"]
    assert one["hands"] == two["hands"] == one["options"]["hands"]
    assert one["sheet_hands"] == two["sheet_hands"] == one["hands"]
    assert one["deals"] == two["deals"]
    await admin_context.close()
