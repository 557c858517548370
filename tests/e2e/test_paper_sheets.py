"""Paper sheets that count, in real browsers against the real daphne server (issue 32,
items 1 and 2): a sheet of a game played last month is entered on a desktop, a player
disputes it on a French phone, the organiser confirms it for all; it counts once, on the
day it was played: in last month's standings, and as the players' last game."""

import datetime
import json

import pytest

from tests.e2e.helpers import log_in
from tests.e2e.test_play_in_browser import DESKTOP, PASSWORD, TIMEOUT_MS

pytestmark = pytest.mark.e2e

SMALL_PHONE = {"width": 360, "height": 740}

SET_UP = (
    f"PASSWORD = {PASSWORD!r}\n"
    + """
import datetime, json
from django.utils import timezone
from accounts.models import User
from leagues.models import League, Membership, Season
league = League.objects.create(name="Club", slug="club")
for name in ["ana", "ben", "cleo"]:
    user = User.objects.create_user(name, f"{name}@example.org", PASSWORD,
                                    display_name=name.title())
    Membership.objects.create(league=league, user=user, status="active")
ana = User.objects.get(username="ana")
league.admins.add(ana)
season = Season.objects.create(league=league, name="2026",
    starts_on=timezone.localdate() - datetime.timedelta(days=60), min_games=1)
ids = {u.username: u.pk for u in User.objects.all()}
print(json.dumps({"season": season.pk, "users": ids,
                  "today": timezone.localdate().isoformat()}))
"""
)

COUNTED = """
import json
from django.utils import timezone
from leagues.models import LeagueGame, ScoreSheet, Standing
sheet = ScoreSheet.objects.get()
entries = LeagueGame.objects.filter(game__table=sheet.table)
print(json.dumps({
    "status": sheet.status,
    "entries": entries.count(),
    "finished": [timezone.localtime(e.finished_at).isoformat() for e in entries],
    "last_played": {s.user.username: timezone.localtime(s.last_played).date().isoformat()
                    for s in Standing.objects.all()},
}))
"""


def last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


async def test_an_organiser_confirms_a_disputed_back_dated_sheet(daphne_server, chromium):
    server = daphne_server
    setup = last_json(server.shell(SET_UP))
    users = setup["users"]
    played_on = datetime.date.fromisoformat(setup["today"]).replace(day=1) - datetime.timedelta(
        days=3
    )

    # Ana, who runs the league, enters last month's sheet on a desktop.
    admin_context = await chromium.new_context(locale="en-US", viewport=DESKTOP)
    admin = await admin_context.new_page()
    admin.set_default_timeout(TIMEOUT_MS)
    await log_in(admin, server, "ana")
    await admin.goto(f"{server.url}/leagues/club/sheets/new/?players=3&rounds=2")
    await admin.select_option("#id_season", str(setup["season"]))
    await admin.fill("#id_played_on", played_on.isoformat())
    for seat, name in enumerate(["ana", "ben", "cleo"]):
        await admin.select_option(f"#id_player_{seat}", str(users[name]))
    heads = [[3, 8, 0], [6, 1, 9]]
    for line, values in enumerate(heads):
        for seat, value in enumerate(values):
            await admin.fill(f"#id_line_{line}_{seat}", str(value))
    await admin.click("form.sheet-form button[type=submit]")
    await admin.wait_for_selector(".sheet-status.sheet-pending")
    sheet_url = admin.url

    # Ben disputes it, in French, on a small phone.
    phone_context = await chromium.new_context(locale="fr-FR", viewport=SMALL_PHONE)
    phone = await phone_context.new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    await log_in(phone, server, "ben")
    await phone.goto(sheet_url)
    assert await phone.get_attribute("html", "lang") == "fr"
    await phone.fill("#reason", "J'ai pris 1 tête, pas 8")
    await phone.click("button[value=dispute]")
    await phone.wait_for_selector(".sheet-status.sheet-disputed")
    width = await phone.evaluate("() => document.querySelector('.sheet-answer').scrollWidth")
    assert width <= SMALL_PHONE["width"], "the answer form is wider than the phone"

    # Ana confirms it for all: it counts, and the button is gone.
    await admin.goto(sheet_url)
    await admin.wait_for_selector(".sheet-status.sheet-disputed")
    await admin.click("text=Confirm for all players")
    await admin.wait_for_selector(".sheet-status.sheet-confirmed")
    assert "it counts" in await admin.inner_text(".messages")
    assert await admin.locator("text=Confirm for all players").count() == 0
    counted = last_json(server.shell(COUNTED))
    assert counted["status"] == "confirmed" and counted["entries"] == 1
    # At noon, the club's time, on the day written on the sheet.
    assert counted["finished"][0].startswith(f"{played_on.isoformat()}T12:00:00")
    assert counted["last_played"] == {name: played_on.isoformat() for name in users}

    # Ben, back on his phone, can no longer answer it; it counts once.
    await phone.goto(sheet_url)
    await phone.wait_for_selector(".sheet-status.sheet-confirmed")
    assert await phone.locator("button[value=confirm]").count() == 0
    await phone_context.close()

    # The standings: in last month's, where last played says its day; this month has none.
    month = played_on.strftime("%Y-%m")
    await admin.goto(f"{server.url}/leagues/club/?season={setup['season']}&month={month}")
    assert month in await admin.get_attribute("nav.months a.current", "href")
    rows = await admin.locator(".standings-table tbody tr").all_inner_texts()
    assert sorted(row.split("\t")[1] for row in rows) == ["Ana", "Ben", "Cleo"]
    assert all(played_on.strftime("%d/%m/%Y") in row for row in rows)
    this_month = datetime.date.fromisoformat(setup["today"]).strftime("%Y-%m")
    assert await admin.locator(f"nav.months a[href*='month={this_month}']").count() == 0
    assert last_json(server.shell(COUNTED))["entries"] == 1
    await admin_context.close()
