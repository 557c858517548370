"""What a player sees at each decision, on a phone and on a desktop (issue 31, "Phone
first, again").

Alice plays a timed 6 qui surprend table with three heuristic bots, at 360×740 in French
and at 1280×900 in English, through the page only. At every decision asked of her:
- the countdown and the prompt are inside the viewport and not covered by anything;
- nothing is wider than the viewport, but for what is inside a box marked as scrolling
  sideways (`data-scrolls`, which shows it);
- on the desktop, her hand does not lie over the last row of the board;
- at the Remplacer prompt (the deal seed gives her a Remplacer, which she attaches on the
  first turn), the cards offered show their text at a contrast of at least 4.5 (WCAG).
The game is played to its end (one human and fast bots: about a minute a size).
"""

import asyncio
import random
import time

import pytest

from tests.e2e.helpers import GameReader
from tests.e2e.test_play_in_browser import (
    TIMEOUT_MS,
    note_console_error,
    sign_up,
    wait_for_version,
)
from tests.e2e.test_surprise_game import READER, WS_OPEN, act

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
# Seat 0 is dealt a Remplacer with this seed (4 seats).
SEED = 11
GAME_SECONDS = 300

SETUP = """
from accounts.models import User
from games import services
alice = User.objects.get(username={name!r})
table = services.table_create(
    user=alice, kind="surprise", seats_count=4, options={{"live_scores": True}},
    time_limit=60, name="Phone first", deal_seed={seed},
)
for _ in range(3):
    services.seat_add_bot(table_id=table.pk, user=alice, bot="surprise_heuristic")
services.table_start(table_id=table.pk, user=alice)
print(table.pk)
"""

# The boxes a decision is judged by, and what lies over or past them.
LAYOUT = """(prompt) => {
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  const box = (element) => {
    if (!element) return null;
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height};
  };
  const inView = (element) => {
    const r = box(element);
    if (!r || r.width === 0 || r.height === 0) return 'not shown';
    if (r.left < 0 || r.top < 0 || r.right > width || r.bottom > height)
      return 'outside the viewport ' + JSON.stringify(r);
    const over = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!over || !(element === over || element.contains(over)))
      return 'covered by ' + (over ? over.outerHTML.slice(0, 120) : 'nothing');
    return 'ok';
  };
  const clock = document.querySelector('#hand time[data-countdown]')
             || document.querySelector('#live time[data-countdown]');
  const asked = [...document.querySelectorAll(prompt)].find(
    element => element.getClientRects().length > 0);
  // Everything shown that ends past the right edge, unless a box that scrolls sideways,
  // and says so, holds it.
  const wide = [];
  for (const element of document.body.querySelectorAll('*')) {
    const r = element.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= width + 0.5) continue;
    let holder = element.parentElement, held = false;
    while (holder && holder !== document.body) {
      const overflow = getComputedStyle(holder).overflowX;
      if (overflow !== 'visible') {
        held = holder.hasAttribute('data-scrolls') && overflow !== 'hidden'
               && overflow !== 'clip' && holder.getBoundingClientRect().right <= width + 0.5;
        break;
      }
      holder = holder.parentElement;
    }
    if (!held) wide.push(element.tagName + '.' + element.className + ' ' + Math.round(r.right));
  }
  const rows = document.querySelectorAll('#rows .row');
  return {
    width: width, height: height,
    scrollWidth: document.documentElement.scrollWidth,
    clock: inView(clock), prompt: inView(asked),
    promptText: asked ? asked.textContent.trim().slice(0, 80) : null,
    wide: wide.slice(0, 8),
    hand: box(document.querySelector('#hand')),
    lastRow: rows.length ? box(rows[rows.length - 1]) : null,
  };
}"""

# WCAG 2 contrast of each text of the cards Remplacer offers, on what is drawn behind it.
CONTRAST = """() => {
  const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const linear = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const behind = (element) => {
    for (let at = element; at; at = at.parentElement) {
      const colour = rgba(getComputedStyle(at).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0)) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const texts = [...document.querySelectorAll('#hand button.swapbtn *')].filter(
    element => [...element.childNodes].some(
      node => node.nodeType === 3 && node.textContent.trim()));
  return texts.map(element => {
    const ink = luminance(rgba(getComputedStyle(element).color));
    const paper = luminance(behind(element));
    return {text: element.textContent.trim(),
            ratio: (Math.max(ink, paper) + 0.05) / (Math.min(ink, paper) + 0.05)};
  });
}"""

# Where each decision's prompt is: the hand's first lines say what is asked.
SELECT_PROMPT = "#select-form > p"
HAND_PROMPT = "#hand .prompt"


def special_for(state, rng):
    """Alice attaches her Remplacer first, then now and then another special."""
    held = state["specials"][0]
    done = {kind for seat, kind, _value in state["decisions"] if seat == 0}
    if "remplacer" in held and "remplacer" not in done:
        return "remplacer"
    usable = [kind for kind in held if kind != "negatif_positif"]
    if usable and rng.random() < 0.4:
        return rng.choice(usable)
    return None


async def select(page, state, rng, phone):
    """A selection as in test_surprise_game.act, with Alice's own choice of special."""
    card = rng.choice(state["hands"][0])
    special = special_for(state, rng)
    button = page.locator(f"#hand button.cardbtn[data-card='{card}']")
    await (button.tap() if phone else button.click())
    await page.locator(f"#select-form input[name=special][value='{special or ''}']").check()
    confirm = page.locator("#confirm-card")
    await (confirm.tap() if phone else confirm.click())


@pytest.mark.parametrize(
    "size, locale", [(PHONE, "fr-FR"), (DESKTOP, "en-US")], ids=["phone-fr", "desktop-en"]
)
async def test_each_decision_keeps_the_countdown_and_the_prompt_in_view(
    daphne_server, chromium, size, locale
):
    server = daphne_server
    label = "phone" if size == PHONE else "desktop"
    phone = size == PHONE
    rng = random.Random(SEED)
    started = time.monotonic()
    context = await chromium.new_context(locale=locale, viewport=size, has_touch=phone)
    await context.add_init_script(WS_OPEN)
    page = await context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: note_console_error(errors, message))
    reader = GameReader(server, READER)
    try:
        username = f"layout_{label}"
        await sign_up(page, server, username, "Alice")
        out = server.shell(SETUP.format(name=username, seed=SEED))
        table_id = int(out.strip().splitlines()[-1])
        await reader.start()
        await page.goto(f"{server.url}/tables/{table_id}/")
        await page.locator("#rows").wait_for(timeout=TIMEOUT_MS)
        await page.wait_for_function("() => window.sixSocketOpen === true", timeout=TIMEOUT_MS)

        decisions, prompts, contrasts = 0, [], []
        deadline = time.monotonic() + GAME_SECONDS
        while True:
            assert time.monotonic() < deadline, "the game did not end in time"
            state = await reader.read(table_id)
            if state["phase"] == "over":
                break
            assert 0 in state["to_act"], f"the bots play on the server: {state}"
            kind = state["prompt"][1] if state["prompt"] else "select"
            where = f"{label}, round {state['round']}, v{state['version']}, {kind}"
            await wait_for_version(page, state["version"])
            prompt = SELECT_PROMPT if kind == "select" else HAND_PROMPT
            await page.locator(prompt).first.wait_for(timeout=TIMEOUT_MS)
            seen = await page.evaluate(LAYOUT, prompt)
            assert seen["clock"] == "ok", (where, "countdown", seen)
            assert seen["prompt"] == "ok", (where, "prompt", seen)
            assert seen["scrollWidth"] <= seen["width"], (where, seen)
            assert not seen["wide"], (where, "wider than the viewport", seen["wide"])
            if not phone:
                hand, row = seen["hand"], seen["lastRow"]
                apart = (
                    hand["top"] >= row["bottom"]
                    or hand["bottom"] <= row["top"]
                    or hand["left"] >= row["right"]
                    or hand["right"] <= row["left"]
                )
                assert apart, (
                    where,
                    "the hand lies over the last row",
                    hand,
                    row,
                )
            if kind == "remplacer":
                contrasts = await page.evaluate(CONTRAST)
                assert contrasts, (where, "no card text offered")
                low = [text for text in contrasts if text["ratio"] < 4.5]
                assert not low, (where, "Remplacer's cards are hard to read", low)
            prompts.append(kind)
            decisions += 1
            if kind == "select":
                await select(page, state, rng, phone)
            else:
                await act(page, state, 0, rng, phone)
            for _ in range(200):
                if (await reader.read(table_id))["version"] != state["version"]:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"{where}: the decision was not taken")
        assert "remplacer" in prompts, prompts
        assert not errors, errors
        print(
            f"\n{label}: {decisions} decisions ({sorted(set(prompts))}), Remplacer contrast "
            f"{min(text['ratio'] for text in contrasts):.1f}, "
            f"{time.monotonic() - started:.0f} s"
        )
    finally:
        await reader.stop()
        await context.close()
