"""A whole game of Six in real browsers, at a phone's size and a desktop's (issue 23).

Alice and Bob (each in a browser context of their own, in English) play a 4-seat table
of Six to 10 points with two bots, set up through the real services (games.services)
with a fixed deal seed, so that the game is the same at every run. They play through
the UI only: at each of their turns, one tap on a raised card (`#hand button.playbtn`)
plays it; passes are automatic and the bots play on the server. Carol, signed in with
no seat, watches. The test checks, as they would see it:

- at every decision, the hand is wholly inside the viewport without scrolling (it is
  fixed at the bottom), shows exactly the seat's cards, and its raised cards are exactly
  the engine's legal moves (read from the database); the other player's page raises
  nothing and does not say it is their turn;
- at every decision, no page holds a card (`data-card`, or a card to send) of another
  seat's hand, and the spectator's page holds no hand card of anybody (hands only shrink
  within a hand of play, so the hands in the database now are sound to check against);
- the "latest plays" list (`#log-current ol.six-plays`) is the hand's latest turns once
  round the table, newest first, on every page, a pass as "<name> passes" (the test
  requires that a pass was seen so at least once: the seeds are chosen so that one is);
- every card played by a tap shows in `#rows` on every page (unless it ended the hand);
- at the end, the winner banner with the winners' names, "Final ranking" and links to
  the replay and the record download (which answer) on every page, and a result in the
  database whose best total reached the target;
- no console error.

Screenshots are written to tests/e2e/artifacts/six-{play,end}-{phone,desktop}.png
(git-ignored).
"""

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
from tests.e2e.test_whole_game import HAND_BOX

pytestmark = pytest.mark.e2e


PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")]
TARGET = 10
# Deal seeds (Table.deal_seed) whose games, with the bots' seeded choices and the test's
# own, last two hands and show passes in the latest plays at the players' turns.
SEEDS = {"phone": 34, "desktop": 16}
GAME_SECONDS = 100
PROMPT = "Your turn: tap a raised card to play it."
PLAY_SHOT_AT = 4  # the human decision whose screen is saved as six-play-<size>.png
# Set once the page's socket is open (htmx's ws extension), before anything is tapped.
WS_OPEN = "document.addEventListener('htmx:wsOpen', () => { window.sixSocketOpen = true; });"

# What a table page shows right now, read at once from the DOM the socket keeps live.
READ = (
    """() => {
  const shown = """
    + SHOWN
    + """;
  const hand = document.querySelector('#hand');
  const plays = document.querySelector('#log-current ol.six-plays');
  const sent = [...document.querySelectorAll('[hx-vals]')]
    .map(element => { try { return JSON.parse(element.getAttribute('hx-vals')).card; }
                      catch (error) { return null; } })
    .filter(card => card);
  return {
    version: shown ? shown.dataset.version : null,
    handVersion: hand ? hand.dataset.version : null,
    handText: hand ? hand.innerText : null,
    hand: hand ? [...hand.querySelectorAll('.scard')].map(card => card.dataset.card) : [],
    raised: [...document.querySelectorAll('#hand button.playbtn')].map(b => b.dataset.card),
    buttons: document.querySelectorAll('button.playbtn').length,
    cards: [...document.querySelectorAll('[data-card]')].map(element => element.dataset.card),
    sent: sent,
    rows: [...document.querySelectorAll('#rows [data-card]')].map(card => card.dataset.card),
    plays: plays ? [...plays.querySelectorAll(':scope > li')].map(li => ({
      text: li.textContent.replace(/\\s+/g, ' ').trim(),
      card: li.querySelector('[data-card]') ? li.querySelector('[data-card]').dataset.card
                                            : null,
    })) : [],
    over: !!document.querySelector('#winner-banner'),
  };
}"""
)

SETUP = """
from accounts.models import User
from games import services
alice = User.objects.get(username={alice!r})
bob = User.objects.get(username={bob!r})
table = services.table_create(
    user=alice, kind="six", seats_count=4, options={{"deck": 40, "target": {target}}},
    time_limit=0, name="Six in browsers", deal_seed={seed},
)
services.seat_join(table_id=table.pk, user=bob)
services.seat_add_bot(table_id=table.pk, user=alice, bot="six_heuristic")
services.seat_add_bot(table_id=table.pk, user=alice, bot="six_random")
services.table_start(table_id=table.pk, user=alice)
print(table.pk)
"""

# A `manage.py shell` kept running for the whole game: each table id written to it is
# answered with one line, the game's state as the engine reads it from the database.
READER = """
import json, sys
from django.utils import translation
from games.six import engine as six
from games.models import Game
for line in sys.stdin:
    game = Game.objects.select_related("table").get(table_id=int(line))
    state = six.load(game.state)
    with translation.override("en"):
        names = [str(seat.name) for seat in game.table.seats.order_by("position")]
    print("STATE " + json.dumps({
        "version": state.version,
        "phase": state.phase,
        "round": state.round,
        "to_move": state.to_move,
        "hands": [list(hand) for hand in state.hands],
        "turns": [list(turn) for turn in state.turns],
        "legal": [[d["card"] for d in six.legal(state, seat)] for seat in range(state.players)],
        "totals": list(state.totals),
        "names": names,
        "result": game.result,
    }), flush=True)
"""


def hand_inside(box) -> bool:
    return (
        box["top"] >= -0.5
        and box["left"] >= -0.5
        and box["bottom"] <= box["height"] + 0.5
        and box["right"] <= box["width"] + 0.5
    )


def check_pages(seen, state, where):
    """Everything each page shows at a decision, against the engine's state of it.
    `seen` is Alice's, Bob's and Carol's (the spectator's) page. Returns the names of
    the seats whose pass the latest plays showed (on every page)."""
    hands = [set(hand) for hand in state["hands"]]
    names = state["names"]
    players = len(hands)
    for index, page in enumerate(seen):
        who = f"{where}, {names[index] if index < 2 else 'Carol (spectator)'}'s page"
        assert page["version"] == str(state["version"]), f"{who}: {page['version']} {state}"
        # Hidden information: no card of another seat's hand, in any form; a spectator
        # (Carol, the third page: no seat) sees no hand at all.
        own = index if index < 2 else None
        others = set().union(*(hand for seat, hand in enumerate(hands) if seat != own))
        leaked = others & (set(page["cards"]) | set(page["sent"]))
        assert not leaked, f"{who} holds {sorted(leaked)} of another seat's hand"
        if index < 2:
            # A player's own hand: their cards, all of them, in one place.
            assert sorted(page["hand"]) == sorted(state["hands"][index]), f"{who}: {page}"
        else:
            assert page["handText"] is None, f"{who}: a spectator has a hand"
            assert not page["sent"] and not page["buttons"], f"{who}: {page}"
    # The latest plays, newest first, once round the table, the same on every page.
    latest = state["turns"][-players:][::-1]
    passes = []
    for index, page in enumerate(seen):
        shown = page["plays"]
        assert len(shown) == len(latest), f"{where}, page {index}: {shown} for {latest}"
        for line, (seat, card) in zip(shown, latest, strict=True):
            if card is None:
                assert line["text"] == f"{names[seat]} passes", f"{where}: {line} {latest}"
                assert line["card"] is None, f"{where}: {line}"
                if index == 0:
                    passes.append(names[seat])
            else:
                assert line["text"].startswith(names[seat]), f"{where}: {line} for {latest}"
                assert line["card"] == card, f"{where}: {line} for {latest}"
                assert card in page["rows"], f"{where}, page {index}: {card} not on the table"
    return passes


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_whole_game_of_six_in_browsers(daphne_server, chromium, size):
    server = daphne_server
    label = "phone" if size == PHONE else "desktop"
    seed = SEEDS[label]
    rng = random.Random(seed)
    started = time.monotonic()
    phone = size == PHONE
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
        usernames = [f"six_{username}_{label}" for username, _ in PLAYERS]
        for page, username, (_, display_name) in zip(pages, usernames, PLAYERS, strict=True):
            await sign_up(page, server, username, display_name)
        out = server.shell(
            SETUP.format(alice=usernames[0], bob=usernames[1], target=TARGET, seed=seed)
        )
        table_id = int(out.strip().splitlines()[-1])
        table_url = f"{server.url}/tables/{table_id}/"
        await reader.start()
        state = await reader.read(table_id)
        assert state["names"] == ["Alice", "Bob", "Heuristic bot", "Random bot"], state
        for page in pages:
            await page.goto(table_url)
            await page.locator("#rows").wait_for(timeout=TIMEOUT_MS)
            await page.wait_for_function("() => window.sixSocketOpen === true", timeout=TIMEOUT_MS)
        # The spectator has no seat: no hand, nothing to play.
        assert await pages[2].locator("#hand").count() == 0

        alice, bob, _carol = pages
        decisions = {0: 0, 1: 0}
        passes_seen = []  # (version, name) of each pass shown in the latest plays
        out_of_view = []
        hands_played = set()
        last_play = None  # (round, card) of the last card tapped
        deadline = time.monotonic() + GAME_SECONDS
        while True:
            assert time.monotonic() < deadline, f"the game did not end in time: {state}"
            state = await reader.read(table_id)
            if state["phase"] == "over":
                break
            seat = state["to_move"]
            # The bots play as soon as it is their turn: only a player is ever awaited.
            assert seat in (0, 1), state
            version = state["version"]
            where = f"hand {state['round']}, version {version}, {state['names'][seat]} to play"
            page = pages[seat]
            for each in pages:
                await wait_for_version(each, version)
            await page.locator(f"#hand[data-version='{version}'] button.playbtn").first.wait_for(
                timeout=TIMEOUT_MS
            )
            seen = [await each.evaluate(READ) for each in pages]
            mine, theirs = seen[seat], seen[1 - seat]

            # The awaited player: the prompt, the raised cards the engine allows.
            assert PROMPT in mine["handText"], f"{where}: {mine['handText']!r}"
            assert mine["raised"], f"{where}: nothing raised"
            illegal = set(mine["raised"]) - set(state["legal"][seat])
            assert not illegal, f"{where}: {sorted(illegal)} raised, not legal {state}"
            assert sorted(mine["raised"]) == sorted(state["legal"][seat]), f"{where}: {mine}"
            box = await page.evaluate(HAND_BOX)
            assert box is not None, f"{where}: no hand"
            if not hand_inside(box):
                out_of_view.append(f"{where}: {box}")
            # The other player: nothing raised, no prompt.
            assert not theirs["buttons"], f"{where}: the other player has cards to play"
            assert theirs["handText"] is not None and PROMPT not in theirs["handText"], where

            passes_seen += [(version, name) for name in check_pages(seen, state, where)]
            if last_play and last_play[0] == state["round"]:
                for index, each in enumerate(seen):
                    assert last_play[1] in each["rows"], f"{where}: page {index}: {last_play}"
            hands_played.add(state["round"])

            decisions[seat] += 1
            if sum(decisions.values()) == PLAY_SHOT_AT:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=ARTIFACTS / f"six-play-{label}.png")

            # One tap on a raised card plays it.
            card = rng.choice([c for c in state["legal"][seat] if c in mine["raised"]])
            button = page.locator(f"#hand button.playbtn[data-card='{card}']")
            if phone:
                await button.tap()
            else:
                await button.click()
            await page.wait_for_function(
                f"old => {SHOWN}?.dataset.version !== old",
                arg=mine["version"],
                timeout=TIMEOUT_MS,
            )
            last_play = (state["round"], card)

        # --- the end ------------------------------------------------------------------------
        result = state["result"]
        assert result is not None and max(result["totals"]) >= TARGET, state
        assert result["totals"] == state["totals"], state
        winners = [state["names"][seat] for seat in result["winners"]]
        assert winners, result
        for index, page in enumerate(pages):
            banner = page.locator("#winner-banner")
            await banner.wait_for(state="visible", timeout=TIMEOUT_MS)
            text = await banner.inner_text()
            for name in winners:
                assert name in text, f"page {index}: {text!r} names not {name}"
            assert await page.locator("#ranking h2", has_text="Final ranking").is_visible()
            # Six's own end screen: each hand's points and cards left, no cards taken.
            assert await page.locator("#ranking #hand-scores").is_visible()
            ranking = await page.locator("#ranking").inner_text()
            assert "Nothing taken" not in ranking and "Picked-up piles" not in ranking, ranking
            lines = await page.locator("#ranking ol.ranking-list > li").all_inner_texts()
            assert len(lines) == 4, lines
            assert lines[0].startswith(f"1. {winners[0]}"), lines
            replay = page.locator(f"#ranking a[href='/tables/{table_id}/replay/']")
            record = page.locator(f"#ranking a[href='/tables/{table_id}/record.json']")
            assert await replay.inner_text() == "Replay the game"
            assert await record.inner_text() == "Download the record"
            if index < 2:
                assert await page.locator("#hand button.playbtn").count() == 0
        await alice.locator("#ranking").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await alice.screenshot(path=ARTIFACTS / f"six-end-{label}.png", full_page=True)
        # The links answer: the replay page, the record as a download of the whole game.
        response = await bob.request.get(f"{table_url}replay/")
        assert response.status == 200, response.status
        response = await bob.request.get(f"{table_url}record.json")
        assert response.status == 200, response.status
        assert "attachment" in response.headers.get("content-disposition", "")
        record_data = json.loads(await response.text())
        assert record_data["game"] == "six", record_data.keys()

        assert passes_seen, "no pass was shown in the latest plays"
        assert decisions[0] and decisions[1], decisions
        assert not errors, errors
        elapsed = time.monotonic() - started
        print(
            f"\n{label}: seed {seed}, {len(hands_played)} hand(s), decisions {decisions}, "
            f"passes shown {len(passes_seen)} times, winners {winners}, {result['totals']}, "
            f"{elapsed:.0f} s"
        )
        assert not out_of_view, "the hand was off screen at a decision:\n" + "\n".join(out_of_view)
    finally:
        await reader.stop()
        for context in contexts:
            await context.close()
