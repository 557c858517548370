"""A whole game of 6 qui surprend in real browsers, at a phone's size and a desktop's
(issue 22, "Done when").

Alice, Bob and Carol (each in a browser context of their own, in English) play a 4-seat
table with a heuristic bot, set up through the real services with a fixed deal seed.
They play through the UI only: a selection is a tap on a card, a tap on the special to
attach (or none), then Play; every prompt the rules create is answered on the page (a
row, a Stop's row, a place between two cards for Insérer, a card and then a place for
Glisser, Remplacer's card, Négatif = Positif's card and extras, the exchange). Their
policy makes sure that, over the game, the humans play a Stop, one of Remplacer, Insérer
or Glisser, and Négatif = Positif (the test checks the record for it). At every decision
no page holds a number card of another seat's hand or another seat's specials in hand.
At the end: the winner banner, the final ranking, the record and the replay answer, and
no console error. Screenshots go to tests/e2e/artifacts/surprise-*.png (git-ignored).
"""

import asyncio
import json
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

pytestmark = pytest.mark.e2e


PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")]
SEEDS = {"phone": 12, "desktop": 31}
GAME_SECONDS = 240
WS_OPEN = "document.addEventListener('htmx:wsOpen', () => { window.sixSocketOpen = true; });"
MOVERS = ("remplacer", "inserer", "glisser")

# What a page shows of cards: card faces, the values buttons send, data-card marks.
READ = (
    """() => {
  const shown = """
    + SHOWN
    + """;
  const numbers = [...document.querySelectorAll('#live span.card b')].map(b => b.textContent);
  const sent = [...document.querySelectorAll('[hx-vals]')].map(element => {
    try { return String(JSON.parse(element.getAttribute('hx-vals')).card); }
    catch (error) { return null; } }).filter(card => card && card !== 'null');
  const hand = document.querySelector('#hand');
  return {
    version: shown ? shown.dataset.version : null,
    numbers: numbers,
    sent: sent,
    specials: hand ? [...hand.querySelectorAll('.my-specials .special-icon')]
                       .map(icon => icon.dataset.special) : [],
    hand: hand ? [...hand.querySelectorAll('.hand-cards b')].map(b => b.textContent) : null,
  };
}"""
)

SETUP = """
from accounts.models import User
from games import services
alice, bob, carol = (User.objects.get(username=name) for name in {names!r})
table = services.table_create(
    user=alice, kind="surprise", seats_count=4, options={{"live_scores": True}},
    time_limit=0, name="6 qui surprend in browsers", deal_seed={seed},
)
services.seat_join(table_id=table.pk, user=bob)
services.seat_join(table_id=table.pk, user=carol)
services.seat_add_bot(table_id=table.pk, user=alice, bot="surprise_heuristic")
services.table_start(table_id=table.pk, user=alice)
print(table.pk)
"""

READER = """
import json, sys
from games.surprise import engine as surprise
from games.models import Game
for line in sys.stdin:
    game = Game.objects.get(table_id=int(line))
    state = surprise.load(game.state)
    decisions = [list(entry) for round in state.history for turn in round[3]
                 for entry in turn[2]]
    decisions += [list(entry) for turn in state.turns for entry in turn[2]]
    attached = [[seat, special] for round in state.history for turn in round[3]
                for seat, special in enumerate(turn[1]) if special]
    print("STATE " + json.dumps({
        "version": state.version,
        "phase": state.phase,
        "round": state.round,
        "to_act": surprise.to_act(state),
        "prompt": list(state.prompt) if state.prompt else None,
        "hands": [list(hand) for hand in state.hands],
        "specials": [list(hand) for hand in state.specials],
        "selections": list(state.selections),
        "decisions": decisions,
        "attached": attached,
        "result": game.result,
    }), flush=True)
"""


def played(state, seats=(0, 1, 2)) -> set[str]:
    """What the humans have played so far: the prompts they answered (a Négatif = Positif
    only when it removed cards)."""
    done = set()
    for seat, kind, value in state["decisions"]:
        if seat in seats and (kind != "negatif_positif" or value is not None):
            done.add(kind)
    return done


def choose_special(state, seat, rng) -> str | None:
    """The special a human attaches: what the game still needs them to play first."""
    held = [kind for kind in state["specials"][seat] if kind != "negatif_positif"]
    done = played(state)
    if "stop" in held and "stop" not in done:
        return "stop"
    movers = [kind for kind in held if kind in MOVERS]
    if movers and not done & set(MOVERS):
        return movers[0]
    if held and rng.random() < 0.3:
        return rng.choice(held)
    return None


async def tap(page, locator, phone):
    if phone:
        await locator.tap()
    else:
        await locator.click()


def check_pages(seen, state, where):
    """No page shows a number card of another seat's hand, or its specials in hand."""
    for index, page in enumerate(seen):
        assert page["version"] == str(state["version"]), f"{where}, page {index}: {page}"
        others = {
            str(card) for seat, hand in enumerate(state["hands"]) if seat != index for card in hand
        }
        if state["phase"] == "select":
            others |= {str(c) for s, c in enumerate(state["selections"]) if s != index and c}
        leaked = others & (set(page["numbers"]) | set(page["sent"]))
        assert not leaked, f"{where}: page {index} shows {sorted(leaked)} of another seat"
        assert sorted(page["specials"]) == sorted(state["specials"][index]), (where, page)
        assert sorted(page["hand"] or []) == sorted(map(str, state["hands"][index])), (
            where,
            page,
        )


async def act(page, state, seat, rng, phone):
    """The human at `seat` makes the decision awaited from them, on their page."""
    version = state["version"]
    if state["phase"] == "select":
        card = rng.choice(state["hands"][seat])
        special = choose_special(state, seat, rng)
        hand = page.locator(f"#hand[data-version='{version}'], #hand")
        await tap(page, hand.locator(f"button.cardbtn[data-card='{card}']").first, phone)
        radio = page.locator(f"#select-form input[name=special][value='{special or ''}']")
        await radio.check()
        await tap(page, page.locator("#confirm-card"), phone)
        return
    kind = state["prompt"][1]
    if kind == "remplacer":
        swaps = page.locator("#hand button.swapbtn")
        if await swaps.count() and rng.random() < 0.5:
            await tap(page, swaps.first, phone)
        else:
            await tap(page, page.locator("#keep-card"), phone)
    elif kind == "row":
        await tap(page, page.locator("#rows button.rowbtn").first, phone)
    elif kind == "stop":
        await tap(page, page.locator("#rows button.stopbtn").first, phone)
    elif kind == "inserer":
        gaps = page.locator("#rows button.gap")
        await tap(page, gaps.nth(rng.randrange(await gaps.count())), phone)
    elif kind == "glisser":
        picks = page.locator("#rows label.pick")
        await tap(page, picks.nth(rng.randrange(await picks.count())), phone)
        places = page.locator("#rows .srow:not(:has(input:checked)) button.gap.to")
        await places.first.wait_for(state="visible", timeout=TIMEOUT_MS)
        await tap(page, places.nth(rng.randrange(await places.count())), phone)
    elif kind == "negatif_positif":
        extras = page.locator("#np-form .np-extra input:not([disabled])")
        if await extras.count():
            await extras.first.check()
        await tap(page, page.locator("#np-remove"), phone)
    else:  # exchange
        give = page.locator("#hand button.exchangebtn[data-special='5e_serie']")
        if await give.count():
            await tap(page, give, phone)
        else:
            await tap(page, page.locator("#no-exchange"), phone)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_whole_game_of_6_qui_surprend_in_browsers(daphne_server, chromium, size):
    server = daphne_server
    label = "phone" if size == PHONE else "desktop"
    seed = SEEDS[label]
    rng = random.Random(seed)
    phone = size == PHONE
    started = time.monotonic()
    contexts = [
        await chromium.new_context(locale="en-US", viewport=size, has_touch=phone) for _ in PLAYERS
    ]
    for context in contexts:
        await context.add_init_script(WS_OPEN)
    pages = [await context.new_page() for context in contexts]
    errors = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
    reader = GameReader(server, READER)
    try:
        usernames = [f"sur_{username}_{label}" for username, _ in PLAYERS]
        for page, username, (_, display_name) in zip(pages, usernames, PLAYERS, strict=True):
            await sign_up(page, server, username, display_name)
        out = server.shell(SETUP.format(names=usernames, seed=seed))
        table_id = int(out.strip().splitlines()[-1])
        table_url = f"{server.url}/tables/{table_id}/"
        await reader.start()
        for page in pages:
            await page.goto(table_url)
            await page.locator("#rows").wait_for(timeout=TIMEOUT_MS)
            await page.wait_for_function("() => window.sixSocketOpen === true", timeout=TIMEOUT_MS)

        prompts = set()
        shots = 0
        deadline = time.monotonic() + GAME_SECONDS
        state = None
        while True:
            assert time.monotonic() < deadline, f"the game did not end in time: {state}"
            state = await reader.read(table_id)
            if state["phase"] == "over":
                break
            humans = [seat for seat in state["to_act"] if seat < 3]
            assert humans, f"the bot plays on the server: {state}"
            seat = humans[0]
            where = f"round {state['round']}, v{state['version']}, seat {seat}, {state['phase']}"
            for page in pages:
                await wait_for_version(page, state["version"])
            check_pages([await page.evaluate(READ) for page in pages], state, where)
            if state["prompt"]:
                prompts.add(state["prompt"][1])
                if shots < 1 and state["prompt"][1] in ("glisser", "inserer", "negatif_positif"):
                    shots += 1
                    ARTIFACTS.mkdir(parents=True, exist_ok=True)
                    await pages[seat].screenshot(path=ARTIFACTS / f"surprise-prompt-{label}.png")
            await act(pages[seat], state, seat, rng, phone)
            for _ in range(200):
                now = await reader.read(table_id)
                if now["version"] != state["version"]:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"{where}: the decision was not taken")

        # --- the end ------------------------------------------------------------------------
        done = played(state)
        assert "stop" in done, done
        assert done & set(MOVERS), done
        assert "negatif_positif" in done, done
        for index, page in enumerate(pages):
            banner = page.locator("#winner-banner")
            await banner.wait_for(state="visible", timeout=TIMEOUT_MS)
            assert await page.locator("#ranking h2", has_text="Final ranking").is_visible()
            lines = await page.locator("#ranking ol.ranking-list > li").all_inner_texts()
            assert len(lines) == 4, (index, lines)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await pages[0].screenshot(path=ARTIFACTS / f"surprise-end-{label}.png", full_page=True)
        response = await pages[1].request.get(f"{table_url}replay/?step=3")
        assert response.status == 200, response.status
        response = await pages[1].request.get(f"{table_url}record.json")
        record = json.loads(await response.text())
        assert record["game"] == "surprise" and len(record["rounds"]) == 2
        assert not errors, errors
        print(
            f"\n{label}: seed {seed}, prompts answered {sorted(prompts)}, humans played "
            f"{sorted(done)}, {state['result']['totals']}, {time.monotonic() - started:.0f} s"
        )
    finally:
        await reader.stop()
        for context in contexts:
            await context.close()
