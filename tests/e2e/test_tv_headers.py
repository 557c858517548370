"""The club room's TV at 1280x900, the smallest screen it draws its game larger on: no
column header of any panel is cut (issue 32, item 7)."""

import pytest

from tests.e2e.test_play_in_browser import ARTIFACTS, TIMEOUT_MS
from tests.e2e.test_tv import SET_UP, last_json, log_in

pytestmark = pytest.mark.e2e

SCREEN = {"width": 1280, "height": 900}
# The TV turns its panels by itself; the test shows each in turn at once.
SHOW = "panel => { document.querySelector('main.tv').dataset.shown = panel; }"

# Each header of the shown panel that its panel (or the game's board) clips, or whose own
# text overflows it: "panel: header text".
CUT_HEADERS = """
() => {
  const shown = document.querySelector('main.tv').dataset.shown;
  const panel = document.getElementById(shown);
  const edge = panel.getBoundingClientRect().right;
  const cut = [];
  for (const th of panel.querySelectorAll('th')) {
    const box = th.getBoundingClientRect();
    const board = th.closest('.tv-board');
    const right = board ? Math.min(edge, board.getBoundingClientRect().right) : edge;
    if (box.width && (box.right > right + 0.5 || th.scrollWidth > th.clientWidth + 1)) {
      cut.push(panel.id + ': ' + th.textContent.trim());
    }
  }
  return cut;
}
"""


async def test_no_column_header_of_the_tv_is_cut_at_1280x900(daphne_server, chromium):
    server = daphne_server
    night = last_json(server.shell(SET_UP))
    url = f"{server.url}/leagues/club/evenings/{night['evening']}/tv/?seconds=600"
    context = await chromium.new_context(locale="en-US", viewport=SCREEN)
    page = await context.new_page()
    try:
        await log_in(page, server, "ana")
        await page.goto(url)
        await page.wait_for_selector("#tv-game #players", state="attached", timeout=TIMEOUT_MS)
        for panel in ("tv-standings", "tv-game"):
            await page.evaluate(
                f"() => {{ document.querySelector('main.tv').dataset.shown = '{panel}'; }}"
            )
            await page.wait_for_timeout(200)
            ARTIFACTS.mkdir(exist_ok=True)
            await page.screenshot(path=str(ARTIFACTS / f"tv-1280-{panel}.png"))
            assert await page.evaluate(CUT_HEADERS) == [], panel
    finally:
        await context.close()
