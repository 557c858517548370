"""A whole game of 6 qui prend ! in real browsers, at a phone's size and a desktop's (issue 21).

Three people sign up through the UI, the creator opens a 4-player table (2 rounds, the
second smallest time limit the lobby offers) and adds the expert bot with the seats' bot
picker; they chat (one mutes another) and play to the end, Carol staying idle for a
while: the time limit's fallback plays for her twice, her seat is then marked away and
played by the computer at once, and she comes back. The test checks, as a player would
see it:

- every turn's cards and takes are in the game log (the current round's panel inside
  `#live`, the earlier rounds' fetched from /tables/N/log/ under it), and they are what
  the rules make of the rows the players saw before that turn;
- the round summary shows with the round's last turn visible under it;
- the winner banner and Rematch at the end; the rematch table has the same players and
  options;
- "(Your turn)" in the tab title exactly when a decision is awaited from that player;
- a chat message reaches the other players, a muted player's does not reach who muted;
- the hand is inside the viewport, without scrolling, at every decision;
- no console error.

Screenshots of the reveal mid-animation, the round summary and the end banner are
written to tests/e2e/artifacts/ (git-ignored).
"""

import asyncio
import json
import random
import re
import time

import pytest

from tests import servers as live
from tests.e2e.test_play_in_browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    SHOWN,
    TIMEOUT_MS,
    act,
    note_console_error,
    sign_up,
    wait_for_version,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def daphne_server(tmp_path_factory):
    """This module's server: no time bank and a short away wait, so that Carol's two
    timeouts take the limit only and the computer then plays for her soon (the bank and
    the wait themselves: tests/games/test_presence.py)."""
    yield from live.serve(tmp_path_factory, TIME_BANK="0", AWAY_WAIT="1")


PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")]
IDLE = 2  # Carol
IDLE_FROM = (1, 3)  # (round, turn) from which she makes no decision
ROUNDS = 2
HAND_SIZE = 10
GAME_SECONDS = 240
YOUR_TURN = "(Your turn)"
AFTER_BACK = ' (Carol, since she scrolled down to "I\'m back")'

# What a player's table page shows right now, read at once from the DOM the socket keeps
# live: everything the test decides on is from one moment.
READ = (
    """() => {
  const live = document.querySelector('#live');
  const shown = """
    + SHOWN
    + """;
  const cards = [...document.querySelectorAll('#hand button.cardbtn')];
  const last = document.querySelector('#last-turn');
  return {
    version: shown ? shown.dataset.version : null,
    phase: live ? live.dataset.phase : null,
    round: live ? Number(live.dataset.round) : null,
    cards: cards.map(button => Number(button.dataset.card)),
    chosen: cards.filter(button => button.getAttribute('aria-pressed') === 'true').length,
    rowbtns: document.querySelectorAll('#rows button.rowbtn').length,
    rows: [...document.querySelectorAll('#rows .row')].map(
      row => [...row.querySelectorAll('.slots span.card b')].map(b => Number(b.textContent))),
    over: !!document.querySelector('#winner-banner'),
    title: document.title,
    lastTurn: last ? last.dataset.turn : null,
    logTurns: document.querySelectorAll('#log-current .log-turns > li').length,
    away: [...document.querySelectorAll('#players tr[data-seat]')]
      .filter(tr => tr.querySelector('.tag.warn')).map(tr => Number(tr.dataset.seat)),
  };
}"""
)

# A log's turns: [{round, turn, plays: [{seat, card, row, heads, took}]}], from the
# current round's panel (`#log-current`, round = #live's) or the earlier rounds' section.
READ_LOG = """selector => {
  const turns = [];
  for (const box of document.querySelectorAll(selector)) {
    const round = box.id === 'log-current'
      ? Number(document.querySelector('#live').dataset.round)
      : Number(box.id.replace('log-round-', ''));
    [...box.querySelectorAll('.log-turns > li')].forEach((li, index) => turns.push({
      round: round,
      turn: index + 1,
      label: li.querySelector('.muted').textContent.trim(),
      plays: [...li.querySelectorAll('ol.turn-plays > li')].map(play => ({
        seat: Number(play.dataset.seat),
        card: Number(play.dataset.card),
        row: Number(play.dataset.row),
        heads: play.dataset.heads === undefined ? null : Number(play.dataset.heads),
        took: play.querySelector('.took')
          ? [...play.querySelectorAll('.took ~ span.card b')].map(b => Number(b.textContent))
          : null,
      })),
    }));
  }
  return turns;
}"""

TITLE_FOLLOWS = (
    "yours => { const s = (" + READ + ")(); const awaited = !!(s.rowbtns || (s.phase === 'select'"
    " && s.cards.length && !s.chosen)); return s.title.startsWith(yours) === awaited; }"
)

HAND_BOX = """() => {
  const hand = document.querySelector('#hand');
  if (!hand) return null;
  const box = hand.getBoundingClientRect();
  const view = document.documentElement;
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right,
          width: view.clientWidth, height: view.clientHeight, scrollY: window.scrollY};
}"""


def printed_heads(card: int) -> int:
    """RULES §1.1, written out again here so that the test does not trust the engine."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def awaited(state) -> bool:
    """A decision is awaited from this page's player: a card to choose, or a row."""
    return bool(
        state["rowbtns"] or (state["phase"] == "select" and state["cards"] and not state["chosen"])
    )


async def hand_in_view(page, what, out_of_view):
    """Note `what` in `out_of_view` if the hand is not wholly inside the viewport as the
    page stands (the test scrolls nothing to look at it)."""
    box = await page.evaluate(HAND_BOX)
    if box is None:
        # A row chosen for the round's last card: the hand is empty, nothing is drawn.
        assert "choosing a row" in what, f"{what}: no hand"
        return
    inside = (
        box["top"] >= -0.5
        and box["left"] >= -0.5
        and box["bottom"] <= box["height"] + 0.5
        and box["right"] <= box["width"] + 0.5
    )
    if not inside:
        out_of_view.append(f"{what}: {box}")


async def shoot(page, name, paths):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=path, full_page=True)
    paths.append(str(path))


async def create_table(page, server) -> tuple[str, int]:
    """The lobby form: 4 players, 2 rounds, the second smallest time limit it offers: on a
    loaded machine the test's own round of reads and checks between a decision point and
    its click took longer than the smallest (15 s), and the fallback played first."""
    await page.goto(f"{server.url}/tables/")
    form = page.locator("#new-table")
    await form.locator("#id_name").fill("Whole game")
    await form.locator("#id_seats_count").select_option("4")
    await form.locator("#id_end").select_option("rounds")
    await form.locator("#id_rounds").fill(str(ROUNDS))
    limits = await form.locator("#id_time_limit option").evaluate_all(
        "options => options.map(option => Number(option.value))"
    )
    limit = sorted(value for value in limits if value > 0)[1]
    await form.locator("#id_time_limit").select_option(str(limit))
    await form.locator("button[type=submit]").click()
    await page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    return page.url, limit


async def seated(page, count):
    await page.wait_for_function(
        "n => document.querySelectorAll('#seats .seat-list li:not(.muted)').length === n",
        arg=count,
        timeout=TIMEOUT_MS,
    )


async def seat_names(page) -> list[str]:
    """The seated players' names: each line's first text (a standing may follow it)."""
    return await page.locator("#seats .seat-list li:not(.muted)").evaluate_all(
        "lines => lines.map(li => li.childNodes[0].textContent.trim())"
    )


async def chat(pages, names):
    """Alice writes, everyone reads; Bob mutes Alice; her next message reaches Carol only."""
    alice, bob, carol = pages

    async def say(page, text):
        form = page.locator("#chat form.chat-form")
        await form.locator("input[name=text]").fill(text)
        await form.locator("button[type=submit]").click()

    def message(page, text):
        return page.locator("#chat-log li.chat-message", has_text=text)

    async def arrives(page, text):
        await message(page, text).first.wait_for(state="visible", timeout=TIMEOUT_MS)

    await say(alice, "Hello all, good game")
    for page in pages:
        await arrives(page, "Hello all, good game")
    sender = message(bob, "Hello all, good game").locator(".chat-sender")
    assert await sender.inner_text() == names[0]
    await message(bob, "Hello all, good game").locator("button", has_text="Mute").click()
    await bob.locator("#chat-settings .chat-muted").wait_for(timeout=TIMEOUT_MS)
    await say(alice, "Bob cannot read this")
    await arrives(carol, "Bob cannot read this")
    # What Carol writes next comes to Bob after Alice's second message went out.
    await say(carol, "Carol is here")
    for page in pages:
        await arrives(page, "Carol is here")
    assert await message(bob, "Bob cannot read this").count() == 0, "a muted player's message"
    assert await message(alice, "Bob cannot read this").count() == 1

    # The canned messages are legible (their text not the colour of their background), and
    # one tap sends one.
    canned = carol.locator("#chat .chat-canned button").first
    colours = await canned.evaluate(
        "b => { const s = getComputedStyle(b); return [s.color, s.backgroundColor]; }"
    )
    assert colours[0] != colours[1], colours
    label = (await canned.inner_text()).strip()
    assert label
    await canned.click()
    for page in pages:
        await message(page, label).first.wait_for(state="visible", timeout=TIMEOUT_MS)


def check_turn(entry, rows, humans_cards, humans_rows, where):
    """One turn of the log against the rules applied to the rows seen before it.
    Returns the rows after the turn."""
    plays = entry["plays"]
    assert sorted(play["seat"] for play in plays) == [0, 1, 2, 3], f"{where}: {entry}"
    cards = [play["card"] for play in plays]
    assert cards == sorted(cards), f"{where}: not in the order placed: {entry}"
    for seat, card in humans_cards.items():
        assert {"seat": seat, "card": card} in [
            {"seat": play["seat"], "card": play["card"]} for play in plays
        ], f"{where}: seat {seat} played {card}, the log says {entry}"
    rows = [list(row) for row in rows]
    for play in plays:
        card = play["card"]
        below = [index for index, row in enumerate(rows) if row[-1] < card]
        took = None
        if not below:
            index = play["row"] - 1
            if play["seat"] in humans_rows:
                assert index == humans_rows[play["seat"]], f"{where}: row chosen {entry}"
            took = rows[index]
        else:
            index = max(below, key=lambda i: rows[i][-1])
            if len(rows[index]) == 5:
                took = rows[index]
        assert play["row"] == index + 1, f"{where}: {card} went to row {play['row']}: {entry}"
        assert play["took"] == took, f"{where}: {card} took {play['took']}, not {took}"
        if took:
            assert play["heads"] == sum(printed_heads(c) for c in took), f"{where}: {entry}"
        rows[index] = [card] if took else rows[index] + [card]
    return rows


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_whole_game_with_an_idle_player(daphne_server, chromium, size):
    server = daphne_server
    label = "phone" if size == PHONE else "desktop"
    started = time.monotonic()
    rng = random.Random(21)
    contexts = [
        await chromium.new_context(locale="en-GB", viewport=size, has_touch=size == PHONE)
        for _ in PLAYERS
    ]
    pages = [await context.new_page() for context in contexts]
    errors = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: note_console_error(errors, message))
    shots = []
    try:
        names = [name for _, name in PLAYERS]
        for page, (username, display_name) in zip(pages, PLAYERS, strict=True):
            await sign_up(page, server, f"{username}_{label}", display_name)
        alice, bob, carol = pages
        table_url, limit = await create_table(alice, server)
        table_id = int(table_url.rstrip("/").rsplit("/", 1)[1])
        options_text = await alice.locator(".table-head .options").inner_text()
        assert f"{limit} s per decision" in options_text and "2 rounds" in options_text
        for page in (bob, carol):
            await page.goto(table_url)
            await page.click("#join")
            await page.wait_for_selector("#join", state="detached", timeout=TIMEOUT_MS)
        await seated(alice, 3)
        await alice.locator("#seats select[name=bot]").select_option("expert")
        await alice.locator("#seats button", has_text="Add a bot").click()
        await seated(alice, 4)
        seats = await seat_names(alice)
        assert seats == [*names, "Expert bot"], seats

        await chat(pages, names)

        await alice.click("#start")
        for page in pages:
            await page.wait_for_function(
                "n => document.querySelectorAll('#hand button.cardbtn').length === n",
                arg=HAND_SIZE,
                timeout=TIMEOUT_MS,
            )

        # --- the game ---------------------------------------------------------------------
        boards = {}  # (round, turn) -> the rows seen before that turn
        human_cards = {}  # (round, turn) -> {seat: card}
        human_rows = {}  # (round, turn) -> {seat: row index chosen}
        last_played = {}  # seat -> (round, turn) of its last card
        titles = {"awaited": 0, "not awaited": 0, "idle awaited": 0}
        idle = {"state": "playing", "away_at": None, "idle_at": None}
        summary_checked = False
        out_of_view = []  # decisions at which the hand was not wholly on screen
        deadline = time.monotonic() + GAME_SECONDS
        seen = None
        while True:
            assert time.monotonic() < deadline, f"the game did not end in time: {seen}"
            seen = [await page.evaluate(READ) for page in pages]
            if all(state["over"] for state in seen):
                break
            # The tab title says "(Your turn)" exactly when this player must decide.
            for index, (page, state) in enumerate(zip(pages, seen, strict=True)):
                if state["title"].startswith(YOUR_TURN) != awaited(state):
                    # A frame may have come between two reads: the title follows at once.
                    await page.wait_for_function(TITLE_FOLLOWS, arg=YOUR_TURN, timeout=2000)
                key = "awaited" if awaited(state) else "not awaited"
                titles[key] += 1
                if index == IDLE and idle["state"] == "idle" and awaited(state):
                    titles["idle awaited"] += 1

            # The round summary: once, at the first turn of round 2, on every page.
            if not summary_checked and any(state["round"] == ROUNDS for state in seen):
                for page in pages:
                    await wait_for_version(page, max(int(s["version"]) for s in seen))
                    summary = page.locator("#round-summary[data-round='1']")
                    await summary.wait_for(state="visible", timeout=TIMEOUT_MS)
                    # The round's last turn stays visible under the summary.
                    await page.locator(f"#last-turn[data-turn='1-{HAND_SIZE}']").wait_for(
                        state="visible", timeout=TIMEOUT_MS
                    )
                    lines = await summary.locator("tbody tr").count()
                    assert lines == 4, f"the summary has {lines} lines"
                    await page.locator("#log-past[data-round='2'] #log-round-1").wait_for(
                        state="attached", timeout=TIMEOUT_MS
                    )
                await shoot(alice, f"round-summary-{label}", shots)
                summary_checked = True
                continue

            # Carol idles, then is marked away, then comes back.
            turn_now = HAND_SIZE + 1 - len(seen[0]["cards"]) if seen[0]["cards"] else None
            if idle["state"] == "playing" and (seen[0]["round"], turn_now or 0) >= IDLE_FROM:
                idle["state"] = "idle"
                idle["idle_at"] = time.monotonic()
            if idle["state"] == "idle" and IDLE in seen[0]["away"]:
                # Marked away only after the time limit ran out twice for her.
                waited = time.monotonic() - idle["idle_at"]
                assert waited >= 2 * limit - 1, f"marked away after {waited:.1f} s"
                idle["state"] = "away"
                idle["away_at"] = seen[0]["lastTurn"]
            if idle["state"] == "away" and seen[0]["lastTurn"] != idle["away_at"]:
                # A turn was played for her by the computer without waiting for the limit:
                # she comes back.
                assert IDLE in seen[IDLE]["away"]
                back = carol.locator("#away-banner form[action$='/back/'] button")
                await back.click()
                for page in pages:
                    await page.wait_for_function(
                        "seat => !document.querySelector("
                        "  `#players tr[data-seat='${seat}'] .tag.warn`)",
                        arg=IDLE,
                        timeout=TIMEOUT_MS,
                    )
                idle["state"] = "back"
                continue
            absent = idle["state"] in ("idle", "away")
            players = [i for i in range(len(pages)) if not (i == IDLE and absent)]

            choosers = [index for index, state in enumerate(seen) if state["rowbtns"]]
            assert len(choosers) <= 1, f"row buttons shown to several players: {seen}"
            if choosers and choosers[0] in players:
                index = choosers[0]
                page = pages[index]
                what = f"{names[index]} choosing a row"
                if index == IDLE and idle["state"] == "back":
                    what += AFTER_BACK
                await hand_in_view(page, what, out_of_view)
                buttons = page.locator("#rows button.rowbtn")
                assert await buttons.count() == 4
                row = rng.randrange(4)
                human_rows.setdefault(last_played[index], {})[index] = row
                await act(pages, index, seen[index]["version"], buttons.nth(row))
                continue

            ready = [
                index
                for index in players
                if seen[index]["phase"] == "select"
                and seen[index]["cards"]
                and not seen[index]["chosen"]
            ]
            if not ready:
                await asyncio.sleep(0.05)
                continue
            index = rng.choice(ready)
            state, page = seen[index], pages[index]
            turn = (state["round"], HAND_SIZE + 1 - len(state["cards"]))
            boards.setdefault(turn, state["rows"])
            if turn[1] > 1:
                # The current round's log holds every turn played before this one.
                assert state["logTurns"] == turn[1] - 1, f"{names[index]} at {turn}: {state}"
            what = f"{names[index]} at {turn}"
            if index == IDLE and idle["state"] == "back":
                what += AFTER_BACK
            await hand_in_view(page, what, out_of_view)
            card = min(state["cards"]) if index == 0 else rng.choice(state["cards"])
            button = page.locator(f"#hand button.cardbtn[data-card='{card}']")
            # A tap arms the card; a second tap on it, or its Play button, plays it.
            await button.click()
            confirm = page.locator("#confirm-card")
            await confirm.wait_for(state="visible", timeout=TIMEOUT_MS)
            assert await confirm.inner_text() == f"Play {card}"
            target = confirm if rng.random() < 0.5 else button
            human_cards.setdefault(turn, {})[index] = card
            last_played[index] = turn
            await act(pages, index, state["version"], target)
            if not any(f"reveal-{label}" in path for path in shots):
                for other in pages:
                    if await other.locator("#rows .reveal-strip").count():
                        await shoot(other, f"reveal-{label}", shots)
                        break
        assert idle["state"] == "back", f"Carol never came back: {idle}"
        assert titles["idle awaited"], "the idle player's title never said it was her turn"
        assert titles["awaited"] and titles["not awaited"], titles

        # --- the end ----------------------------------------------------------------------
        for page in pages:
            await page.locator("#winner-banner").wait_for(state="visible", timeout=TIMEOUT_MS)
            # The game's last turn stays in view with the result.
            await page.locator(f"#last-turn[data-turn='{ROUNDS}-{HAND_SIZE}']").wait_for(
                state="visible", timeout=TIMEOUT_MS
            )
            await page.locator("#end-actions #rematch").wait_for(
                state="visible", timeout=TIMEOUT_MS
            )
            await page.locator("#log-past[data-round='2over']").wait_for(
                state="attached", timeout=TIMEOUT_MS
            )
        await shoot(alice, f"end-banner-{label}", shots)
        assert any(f"reveal-{label}" in path for path in shots), "no reveal was seen animated"

        # Every turn's cards and takes in the log, as the rules place them on the rows seen.
        logs = []
        for page in pages:
            past = await page.evaluate(READ_LOG, "#log-past details.log")
            current = await page.evaluate(READ_LOG, "#log-current")
            assert [t for t in past if t["round"] == ROUNDS] == current
            logs.append(past)
        assert logs[0] == logs[1] == logs[2]
        log = {(entry["round"], entry["turn"]): entry for entry in logs[0]}
        expected = [(r, t) for r in range(1, ROUNDS + 1) for t in range(1, HAND_SIZE + 1)]
        assert sorted(log) == expected, sorted(log)
        for r in range(1, ROUNDS + 1):
            rows = boards[(r, 1)]
            for t in range(1, HAND_SIZE + 1):
                where = f"round {r}, turn {t}"
                assert log[(r, t)]["label"] == f"Turn {t}", where
                assert rows == boards[(r, t)], f"{where}: the log does not lead to the rows seen"
                humans = human_cards.get((r, t), {}), human_rows.get((r, t), {})
                rows = check_turn(log[(r, t)], rows, *humans, where)
                boards.setdefault((r, t + 1), rows)

        # Carol's decisions: twice the time limit's, then the computer's, then her own.
        sources = json.loads(
            server.shell(
                "import json; from games.models import Decision; "
                f"print(json.dumps(list(Decision.objects.filter(game__table_id={table_id}, "
                f"seat={IDLE}).values_list('source', flat=True))))"
            )
            .strip()
            .splitlines()[-1]
        )
        assert sources.count("timeout") == 2, sources
        first_away = sources.index("away")
        assert sources[first_away - 2 : first_away] == ["timeout", "timeout"], sources
        assert "player" in sources[first_away:], sources

        # --- the rematch ------------------------------------------------------------------
        # Rematch takes Alice to the new table; the others join it from the old one's page.
        await alice.click("#rematch")
        await alice.wait_for_url(
            lambda url: re.search(r"/tables/\d+/$", url) and url != table_url, timeout=TIMEOUT_MS
        )
        rematch_url = alice.url
        for page in (bob, carol):
            await page.locator("#join-rematch").click(timeout=TIMEOUT_MS)
            await page.wait_for_url(rematch_url, timeout=TIMEOUT_MS)
        await seated(alice, 4)
        assert await seat_names(alice) == seats
        assert await alice.locator(".table-head .options").inner_text() == options_text
        rematch_id = int(rematch_url.rstrip("/").rsplit("/", 1)[1])
        tables = json.loads(
            server.shell(
                "import json; from games.models import Table; print(json.dumps([{"
                "'kind': t.kind, 'seats_count': t.seats_count, 'options': t.options, "
                "'time_limit': t.time_limit, 'is_public': t.is_public, 'seats': [("
                "s.position, s.user.username if s.user_id else '', s.bot) "
                "for s in t.seats.order_by('position')]} "
                f"for t in Table.objects.filter(pk__in=[{table_id}, {rematch_id}])"
                ".order_by('pk')]))"
            )
            .strip()
            .splitlines()[-1]
        )
        assert tables[0] == tables[1], tables

        assert not errors, errors
        elapsed = time.monotonic() - started
        print(f"\n{label}: a whole game in {elapsed:.0f} s; screenshots:")
        for path in shots:
            print(f"  {path}")
        assert not out_of_view, "the hand was off screen at a decision:\n" + "\n".join(out_of_view)
    finally:
        for context in contexts:
            await context.close()
