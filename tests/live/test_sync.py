"""A page that missed an announcement catches up by itself (static/js/table.js).

The change is made in another process with its announcement dropped, as if Redis had lost
it: the page must not see it until it has been quiet for `data-sync-after` and asks for
its table with {"type": "sync"}.
"""

import time

import pytest

from tests.live.test_restart import CHECKS_SHOWN, set_up_table, stored

pytestmark = pytest.mark.e2e

# Bob selects in a process whose channel layer reaches no server: the announcement is lost.
SILENT_DECISION = """
from django.test import override_settings
from accounts.models import User
from games import services

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
with override_settings(CHANNEL_LAYERS=IN_MEMORY):
    services.game_decide(
        table_id=%(table)d,
        user=User.objects.get(username="bob"),
        decision={"type": "select", "card": %(card)d},
        client_id="silent-1",
    )
"""


async def test_a_page_that_missed_a_change_asks_for_its_table(daphne_server, chromium):
    server = daphne_server
    setup = set_up_table(server, ["ines", "bob"])
    table = setup["table"]
    context = await chromium.new_context(locale="en-US")
    await context.add_cookies(
        [{"name": setup["session_cookie"], "value": setup["sessions"]["ines"], "url": server.url}]
    )
    page = await context.new_page()
    try:
        await page.goto(f"{server.url}/tables/{table}/")
        await page.wait_for_selector("#hand button.cardbtn")
        # Not before the test says so: an hour of quiet first.
        await page.evaluate(
            "() => { document.querySelector('.table-page').dataset.syncAfter = 3600000; }"
        )

        card = stored(server, table)["hands"][1][0]
        server.shell(SILENT_DECISION % {"table": table, "card": card})
        assert stored(server, table)["selections"][1] == card
        # The announcement never left that process: the page still shows nobody as having
        # chosen (reading the stored game above took longer than a frame would).
        assert await page.evaluate(f"() => {CHECKS_SHOWN}") == 0

        await page.evaluate(
            "() => { document.querySelector('.table-page').dataset.syncAfter = 1000; }"
        )
        started = time.monotonic()
        await page.wait_for_function(f"() => {CHECKS_SHOWN} === 1", timeout=5000)
        print(f"the page caught up {time.monotonic() - started:.1f} s after sync was allowed")
        # The frame it got is the table now: Ines can still choose, her hand is whole.
        assert await page.locator("#hand button.cardbtn").count() == 10
    finally:
        await context.close()
