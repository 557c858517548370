"""A card tapped once stays armed when a frame redraws the hand before the second tap.

A frame that redraws the whole table (a player marked away or back, a seat changed) comes
at any moment; it must not quietly drop the card the player has just tapped, nor leave
the Play button saying "Play" with nothing to play.
"""

import pytest

from tests.e2e.helpers import FRAMES_IN, after_first_frame, log_in
from tests.e2e.test_play_in_browser import PASSWORD, PHONE, TIMEOUT_MS

pytestmark = pytest.mark.e2e

SET_UP = f"""
from accounts.models import User
from games import services
ana = User.objects.create_user("ana", "ana@example.org", {PASSWORD!r}, display_name="Ana")
table = services.table_create(user=ana, seats_count=3, options={{}}, time_limit=0, deal_seed=4)
for bot in ("random", "random"):
    services.seat_add_bot(table_id=table.pk, user=ana, bot=bot)
services.table_start(table_id=table.pk, user=ana)
print(table.pk)
"""

# What the seats changing without a move sends every socket of the table: a whole frame.
SEATS_CHANGED = """
from games.announce import announce
from games.services.common import table_changed, table_group
announce(table_group({table}), table_changed({table}))
"""

FRAMES = "() => window.framesIn"


async def test_a_frame_that_redraws_the_hand_keeps_the_tapped_card_armed(daphne_server, chromium):
    table = int(daphne_server.shell(SET_UP).strip().splitlines()[-1])
    context = await chromium.new_context(locale="en-US", viewport=PHONE)
    try:
        page = await context.new_page()
        await page.add_init_script(FRAMES_IN)
        await log_in(page, daphne_server, "ana")
        await page.goto(f"{daphne_server.url}/tables/{table}/")
        await after_first_frame(page)
        first = page.locator("#hand.awaited button.cardbtn").first
        card = await first.get_attribute("data-card")
        await first.click()
        confirm = page.locator("#confirm-card")
        assert await confirm.inner_text() == f"Play {card}"

        frames = await page.evaluate(FRAMES)
        daphne_server.shell(SEATS_CHANGED.format(table=table))
        await page.wait_for_function(f"() => window.framesIn > {frames}", timeout=TIMEOUT_MS)

        armed = page.locator("#hand button.cardbtn.armed")
        assert await armed.count() == 1
        assert await armed.get_attribute("data-card") == card
        assert await confirm.inner_text() == f"Play {card}"
        assert await confirm.is_enabled()
        # The Play button plays it: the bots have chosen, so the turn is played at once
        # and the card leaves the hand.
        await confirm.click()
        await page.wait_for_function(
            "card => !document.querySelector(`#hand [data-card='${card}']`)",
            arg=card,
            timeout=TIMEOUT_MS,
        )
    finally:
        await context.close()
