"""Each game animates its reveal, in a real browser against a real daphne (issue 30).

Rita signs up and plays a table of each game with bots, through the UI only: 6 qui prend !
(a card, then Play; a row when hers is too low), 6 qui surprend (a card and a special,
and every prompt the rules put to her, as tests/e2e/test_surprise_game.py answers them)
and Six (a tap on a raised card). The bots play on the server at once, so each of her
decisions brings a frame with what the turn did. The page records every step of a reveal
as it is highlighted and everything a reveal lays over the page (a MutationObserver set
before the page's scripts), and the shared code counts the reveals shown and skipped on
<html> (static/js/live.js). The test checks, for each game:

- with animations on, a reveal runs when a frame brings a turn, its steps shown in their
  order, with what that game's animation adds: 6 qui prend !'s strip of revealed cards
  over the rows; 6 qui surprend's lines said over the table, a special's effect among
  them; Six's card laid flying to its place (and a pass said, when one comes);
- once "Skip animations" is ticked in the page's preferences, the next turns are skipped:
  no reveal runs, nothing is highlighted or laid over the page;
- with the system's "reduce motion", no reveal runs either;
- no script error.

A screenshot of each game's reveal under way is written to
tests/e2e/artifacts/reveal-<game>.png (git-ignored).
"""

import asyncio
import random
import time

import pytest

from tests.e2e.helpers import GameReader
from tests.e2e.test_play_in_browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    SHOWN,
    TIMEOUT_MS,
    note_console_error,
    sign_up,
    wait_for_version,
)
from tests.e2e.test_surprise_game import READER as SURPRISE_READER
from tests.e2e.test_surprise_game import act as surprise_act

pytestmark = pytest.mark.e2e


# The longest a decision may wait for its reveal to be over, and a whole test.
REVEAL_SECONDS = 8
GAME_SECONDS = 120

# Set before the page's own scripts: the socket's opening, and what reveals show.
RECORDER = """
window.sixSocketOpen = false;
document.addEventListener('htmx:wsOpen', () => { window.sixSocketOpen = true; });
window.revealSeen = [];
const OVERLAYS = ['reveal-strip', 'reveal-say', 'reveal-over', 'taking', 'reveal-hit'];
new MutationObserver(records => {
  for (const record of records) {
    const nodes = record.type === 'childList' ? [...record.addedNodes] : [record.target];
    for (const node of nodes) {
      if (node.nodeType !== 1) continue;
      if (node.classList.contains('reveal-now')) {
        const marker = node.closest('[data-reveal]');
        window.revealSeen.push({
          what: 'step', key: marker ? marker.dataset.reveal : null,
          step: node.dataset.revealStep || null, event: node.dataset.event || null,
          special: node.dataset.special || null, laid: node.dataset.laid || null,
          text: node.textContent.replace(/\\s+/g, ' ').trim(),
        });
      }
      for (const name of OVERLAYS) {
        if (node.classList.contains(name)) {
          window.revealSeen.push({what: name, text: node.textContent.replace(/\\s+/g, ' ').trim()});
        }
      }
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['class']});
"""

COUNTS = """() => ({
  runs: Number(document.documentElement.dataset.revealRuns || 0),
  skipped: Number(document.documentElement.dataset.revealSkipped || 0),
  revealing: document.documentElement.dataset.revealing || null,
  still: document.documentElement.classList.contains('still'),
  seen: window.revealSeen.length,
})"""

TABLE = """
from accounts.models import User
from games import services
rita = User.objects.get(username={username!r})
table = services.table_create(
    user=rita, kind={kind!r}, seats_count=3, options={options!r}, time_limit=0,
    name="Reveals", deal_seed={seed},
)
for bot in {bots!r}:
    services.seat_add_bot(table_id=table.pk, user=rita, bot=bot)
services.table_start(table_id=table.pk, user=rita)
print(table.pk)
"""

GAMES = {
    "nimmt": {"options": {"end": "rounds", "rounds": 2}, "bots": ["heuristic", "random"]},
    "surprise": {"options": {"live_scores": True}, "bots": ["surprise_heuristic"] * 2},
    "six": {"options": {"deck": 40, "target": 60}, "bots": ["six_heuristic", "six_random"]},
}


class Rita:
    """The one player at the table: her page, and her decisions taken on it."""

    def __init__(self, page, kind, reader, table_id, seed):
        self.page = page
        self.kind = kind
        self.reader = reader
        self.table_id = table_id
        self.rng = random.Random(seed)

    async def version(self) -> str | None:
        return await self.page.evaluate(f"() => {SHOWN}?.dataset.version || null")

    async def decide(self) -> bool:
        """Takes the decision awaited from her, if any; True once the page has moved on."""
        page = self.page
        before = await self.version()
        if self.kind == "surprise":
            state = await self.reader.read(self.table_id)
            if state["phase"] == "over" or 0 not in state["to_act"]:
                return False
            await wait_for_version(page, state["version"])
            await surprise_act(page, state, 0, self.rng, False)
        elif self.kind == "six":
            button = page.locator("#hand button.playbtn")
            if not await button.count():
                return False
            await button.nth(self.rng.randrange(await button.count())).click()
        else:
            rows = page.locator("#rows button.rowbtn")
            cards = page.locator("#hand.awaited button.cardbtn")
            if await rows.count():
                await rows.first.click()
            elif await cards.count():
                await cards.nth(self.rng.randrange(await cards.count())).click()
                await page.locator("#confirm-card").click()
            else:
                return False
        await page.wait_for_function(
            f"old => {SHOWN}?.dataset.version !== old", arg=before, timeout=TIMEOUT_MS
        )
        return True

    async def play_until(self, done, what: str):
        """Decides, each time the reveal her decision brought is over, until `done(counts)`."""
        deadline = time.monotonic() + GAME_SECONDS
        while True:
            counts = await self.page.evaluate(COUNTS)
            if done(counts):
                return counts
            assert time.monotonic() < deadline, f"{self.kind}: {what} never came: {counts}"
            assert not await self.page.locator("#winner-banner").count(), (
                f"{self.kind}: the game ended before {what}: {counts}"
            )
            await self.page.wait_for_function(
                "() => !document.documentElement.dataset.revealing",
                timeout=REVEAL_SECONDS * 1000,
            )
            if not await self.decide():
                await asyncio.sleep(0.05)
            # The frame her decision brought is handled (its reveal starts) by then.
            await asyncio.sleep(0.1)


async def open_table(server, chromium, kind, seed, username, viewport=DESKTOP, **options):
    context = await chromium.new_context(locale="en-US", viewport=viewport, **options)
    await context.add_init_script(RECORDER)
    page = await context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: note_console_error(errors, message))
    await sign_up(page, server, username, "Rita")
    game = GAMES[kind]
    out = server.shell(
        TABLE.format(
            username=username, kind=kind, options=game["options"], bots=game["bots"], seed=seed
        )
    )
    table_id = int(out.strip().splitlines()[-1])
    await page.goto(f"{server.url}/tables/{table_id}/")
    await page.locator("#rows").wait_for(timeout=TIMEOUT_MS)
    await page.wait_for_function("() => window.sixSocketOpen === true", timeout=TIMEOUT_MS)
    return context, page, table_id, errors


def steps_of(seen) -> list[dict]:
    return [entry for entry in seen if entry["what"] == "step"]


def assert_in_order(steps, kind):
    """Within a turn (a key) the steps come in their order, each once."""
    by_key = {}
    for step in steps:
        by_key.setdefault(step["key"], []).append(int(step["step"]))
    for key, numbers in by_key.items():
        assert numbers == sorted(set(numbers)), f"{kind}: turn {key} shown as {numbers}"


def shows_the_game(kind, seen) -> bool:
    """What this game's own animation adds has been seen."""
    steps = steps_of(seen)
    overlays = {entry["what"] for entry in seen}
    if not steps:
        return False
    if kind == "nimmt":
        # The turn's cards in a strip over the rows, then placed one by one.
        return "reveal-strip" in overlays and all(step["key"] for step in steps)
    if kind == "surprise":
        # Each line said over the rows; a special's effect among them.
        return "reveal-say" in overlays and any(step["special"] for step in steps)
    # Six: a card laid flies to its place (a pass is said instead).
    return any(step["laid"] for step in steps) and "reveal-over" in overlays


@pytest.mark.parametrize("kind", ["nimmt", "surprise", "six"])
async def test_each_game_animates_its_reveal_unless_asked_not_to(daphne_server, chromium, kind):
    server = daphne_server
    seed = {"nimmt": 5, "surprise": 12, "six": 21}[kind]
    context, page, table_id, errors = await open_table(
        server, chromium, kind, seed, f"reveal_{kind}"
    )
    reader = GameReader(server, SURPRISE_READER) if kind == "surprise" else None
    if reader:
        await reader.start()
    try:
        rita = Rita(page, kind, reader, table_id, seed)
        # Nothing is animated at the page's load: the table as it stands.
        assert (await page.evaluate(COUNTS))["runs"] == 0

        # --- animations on: the game's own reveal runs -------------------------------------
        deadline = time.monotonic() + GAME_SECONDS
        shot = False
        while True:
            counts = await page.evaluate(COUNTS)
            seen = await page.evaluate("() => window.revealSeen")
            if counts["runs"] >= 1 and shows_the_game(kind, seen):
                break
            assert time.monotonic() < deadline, seen
            runs = counts["runs"]
            await rita.play_until(lambda now, runs=runs: now["runs"] > runs, "a reveal")
            if not shot:
                # Mid-animation, for a look (git-ignored).
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=ARTIFACTS / f"reveal-{kind}.png")
                shot = True
            await page.wait_for_function(
                "() => !document.documentElement.dataset.revealing",
                timeout=REVEAL_SECONDS * 1000,
            )
        assert counts["skipped"] == 0, counts
        assert_in_order(steps_of(seen), kind)
        log = await page.evaluate("() => document.documentElement.dataset.revealLog")
        assert log and "#" in log, log
        if kind == "six":
            passes = [step for step in steps_of(seen) if not step["laid"]]
            said = [entry["text"] for entry in seen if entry["what"] == "reveal-say"]
            assert len(said) == len(passes), (said, passes)
            assert all(text.endswith("passes") for text in said), said
        if kind == "surprise":
            # A special's line is said with its icon, as the log words it.
            special = next(step for step in steps_of(seen) if step["special"])
            said = [entry["text"] for entry in seen if entry["what"] == "reveal-say"]
            assert special["text"] in said, (special, said)
        # Nothing a reveal laid over the page stays once it is over.
        assert not await page.locator(".reveal-over, .reveal-strip, .reveal-now").count()

        # --- "Skip animations": the next turns are not animated --------------------------
        await page.locator("#prefs summary").click()
        await page.locator("#prefs input[data-pref='still']").check()
        before = await page.evaluate(COUNTS)
        assert before["still"], before
        after = await rita.play_until(lambda counts: counts["skipped"] >= 2, "a skipped reveal")
        assert after["runs"] == before["runs"], (before, after)
        assert after["seen"] == before["seen"], await page.evaluate(
            "n => window.revealSeen.slice(n)", before["seen"]
        )
        print(
            f"\n{kind}: {len(steps_of(seen))} steps shown in {counts['runs']} reveal(s), "
            f"{sorted({entry['what'] for entry in seen} - {'step'})}, then "
            f"{after['skipped']} skipped; e.g. {steps_of(seen)[-1]}"
        )
        # The preference is kept in this browser: a page opened again is still.
        await page.reload()
        await page.wait_for_function("() => window.sixSocketOpen === true", timeout=TIMEOUT_MS)
        assert await page.locator("#prefs input[data-pref='still']").is_checked()
        assert not errors, errors
    finally:
        if reader:
            await reader.stop()
        await context.close()


async def test_reduced_motion_shows_no_reveal(daphne_server, chromium):
    context, page, table_id, errors = await open_table(
        daphne_server, chromium, "six", 22, "reveal_still", reduced_motion="reduce"
    )
    try:
        rita = Rita(page, "six", None, table_id, 22)
        after = await rita.play_until(lambda counts: counts["skipped"] >= 2, "a skipped reveal")
        assert after["runs"] == 0 and after["seen"] == 0, after
        # The page's own preference is not what stilled it.
        assert not after["still"], after
        assert not errors, errors
    finally:
        await context.close()


async def test_a_phone_sees_the_reveal_over_the_table(daphne_server, chromium):
    """On a phone the log is folded: the steps are shown over the table all the same."""
    context, page, table_id, errors = await open_table(
        daphne_server, chromium, "six", 23, "reveal_phone", viewport=PHONE, has_touch=True
    )
    try:
        rita = Rita(page, "six", None, table_id, 23)
        await rita.play_until(lambda counts: counts["runs"] >= 2, "two reveals")
        seen = await page.evaluate("() => window.revealSeen")
        flying = [entry for entry in seen if entry["what"] == "reveal-over"]
        assert flying, seen
        assert not errors, errors
    finally:
        await context.close()
