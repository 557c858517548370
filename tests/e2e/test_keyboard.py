"""A whole round of 6 qui prend ! played with the keyboard only (issue 31, "Keyboard and
screen readers"), at 360×740 in French and at 1280×900 in English.

One player and two bots; the player's page is open when the game starts. From the moment
each decision is hers ("your turn": the hand awaits a card, or a row is to be taken),
she needs at most 3 key presses (page.keyboard.press, nothing clicked) to make it: the
focus is already on the decision's first choice, the arrow keys (or Home, End) move
between the cards, Enter chooses a card and Enter again plays it. After every pushed
frame during her turn the focus is in the page, never on <body>. The board's rows read
"Row 1: …; n heads" to a screen reader, the cards "93, 1 head", and the polite live
region (#announcer, never replaced by a frame) reads out the plays of each turn and
"It is your turn." in English.
"""

import random
import re
import time

import pytest

from tests.e2e.helpers import log_in
from tests.e2e.test_play_in_browser import DESKTOP, PASSWORD, TIMEOUT_MS, note_console_error

pytestmark = pytest.mark.e2e

SMALL_PHONE = {"width": 360, "height": 740}
HAND_SIZE = 10
MAX_PRESSES = 3
GAME_SECONDS = 120

USER = """
from accounts.models import User
User.objects.create_user({username!r}, "{username}@example.org", {password!r},
                         display_name={name!r})
"""

TABLE = """
from accounts.models import User
from games import services
user = User.objects.get(username={username!r})
table = services.table_create(user=user, kind="nimmt", seats_count=3,
    options={{"end": "rounds", "rounds": 1}}, time_limit=0, name="Keys", deal_seed={seed})
services.seat_add_bot(table_id=table.pk, user=user, bot="expert")
services.seat_add_bot(table_id=table.pk, user=user, bot="random")
print(table.pk)
"""

START = """
from accounts.models import User
from games import services
services.table_start(table_id={table}, user=User.objects.get(username={username!r}))
"""

# After every frame (once every listener of it has run), whether a decision is awaited
# from the page's player and the focus is then on <body>.
WATCH = """
window.focusLost = [];
window.framesSeen = 0;
window.saidAloud = [];
document.addEventListener('DOMContentLoaded', () => {
  const region = document.querySelector('#announcer');
  if (region) {
    new MutationObserver(() => window.saidAloud.push(region.textContent))
      .observe(region, {childList: true, characterData: true, subtree: true});
  }
});
document.addEventListener('htmx:wsAfterMessage', () => setTimeout(() => {
  window.framesSeen += 1;
  const turn = !!(document.querySelector('#hand.awaited') ||
                  document.querySelector('#rows button.rowbtn'));
  const focus = document.activeElement;
  if (turn && (!focus || focus === document.body)) {
    window.focusLost.push(document.querySelector('#players')?.dataset.version);
  }
}, 0));
"""

# What the page shows now, read at once.
READ = """() => {
  const focus = document.activeElement;
  const hand = [...document.querySelectorAll('#hand button.cardbtn')];
  return {
    version: (document.querySelector('#players') || document.querySelector('#live'))
      ?.dataset.version,
    handTurn: !!document.querySelector('#hand.awaited'),
    rowTurn: document.querySelectorAll('#rows button.rowbtn').length,
    over: !!document.querySelector('#winner-banner'),
    hand: hand.map(b => Number(b.dataset.card)),
    chosen: hand.filter(b => b.getAttribute('aria-pressed') === 'true')
      .map(b => Number(b.dataset.card)),
    focusCard: focus && focus.matches('#hand button.cardbtn') ? Number(focus.dataset.card)
                                                              : null,
    focusRow: focus && focus.matches('#rows button.rowbtn')
      ? Number(focus.closest('.row').dataset.row) : null,
    focusTag: focus ? focus.tagName : null,
    focusHtml: focus ? focus.outerHTML.slice(0, 200) : null,
    rowLabels: [...document.querySelectorAll('#rows .row')].map(r => r.getAttribute('aria-label')),
    rowCards: [...document.querySelectorAll('#rows .row')].map(
      r => [...r.querySelectorAll('.slots span.card b')].map(b => b.textContent)),
    cardNames: hand.map(b => b.querySelector('.card').getAttribute('aria-label')),
    buttonNames: hand.map(b => b.textContent),
    announcer: document.querySelector('#announcer')?.textContent || '',
    announcerLive: document.querySelector('#announcer')?.getAttribute('aria-live'),
    announcerInLive: !!document.querySelector('#live #announcer'),
  };
}"""


async def wait_for_turn(page, deadline):
    """Until a decision is awaited from the page's player, or the game is over."""
    await page.wait_for_function(
        """() => !!(document.querySelector('#hand.awaited') ||
                   document.querySelector('#rows button.rowbtn') ||
                   document.querySelector('#winner-banner'))""",
        timeout=max(1000, (deadline - time.monotonic()) * 1000),
    )


@pytest.mark.parametrize(
    ("locale", "size", "seed"),
    [
        pytest.param("fr-FR", SMALL_PHONE, 11, id="fr-360x740"),
        pytest.param("en-US", DESKTOP, 12, id="en-1280x900"),
    ],
)
async def test_a_round_played_with_the_keyboard_only(daphne_server, chromium, locale, size, seed):
    username = f"keys{seed}"
    daphne_server.shell(USER.format(username=username, password=PASSWORD, name="Kim"))
    table_id = int(
        daphne_server.shell(TABLE.format(username=username, seed=seed)).strip().splitlines()[-1]
    )
    rng = random.Random(seed)
    errors = []
    context = await chromium.new_context(locale=locale, viewport=size)
    await context.add_init_script(WATCH)
    try:
        page = await context.new_page()
        page.on("console", lambda message: note_console_error(errors, message))
        await log_in(page, daphne_server, username)
        await page.goto(f"{daphne_server.url}/tables/{table_id}/")
        await page.wait_for_selector("#seats", timeout=TIMEOUT_MS)
        await page.wait_for_function("() => window.htmx && document.querySelector('#live')")
        # The socket is open before the game starts: the turn comes with a pushed frame.
        await page.wait_for_timeout(500)
        daphne_server.shell(START.format(table=table_id, username=username))

        deadline = time.monotonic() + GAME_SECONDS
        played = rows_taken = 0
        presses_each = []
        while True:
            await wait_for_turn(page, deadline)
            shown = await page.evaluate(READ)
            if shown["over"]:
                break
            assert time.monotonic() < deadline, "the round did not end in time"
            # "Your turn": the focus is already on the decision's first choice.
            assert shown["focusTag"] != "BODY", shown
            presses = 0
            if shown["handTurn"]:
                hand = shown["hand"]
                # The focus is on a card of the hand: the first at the first turn, then
                # where it was left (the card next to the one played).
                assert shown["focusCard"] in hand, repr(shown)
                if played == 0:
                    assert shown["focusCard"] == hand[0], repr(shown)
                # Every card of the hand has a name: "93, 1 head" ("93, 1 tête").
                for number, name in zip(hand, shown["cardNames"], strict=True):
                    assert re.fullmatch(rf"{number}, [1-7] \w+", name), name
                # The focused card (Enter, Enter), the next (→, Enter, Enter), the first
                # (Home, Enter, Enter) or the last (End, Enter, Enter).
                at = hand.index(shown["focusCard"])
                which = rng.choice(["focused", "next", "first", "last"])
                keys = {"focused": [], "next": ["ArrowRight"], "first": ["Home"], "last": ["End"]}[
                    which
                ]
                target = {
                    "focused": hand[at],
                    "next": hand[min(at + 1, len(hand) - 1)],
                    "first": hand[0],
                    "last": hand[-1],
                }[which]
                for key in keys:
                    await page.keyboard.press(key)
                    presses += 1
                focused = await page.evaluate(READ)
                assert focused["focusCard"] == target, (which, focused)
                await page.keyboard.press("Enter")  # chooses it: Play shows
                await page.keyboard.press("Enter")  # plays it
                presses += 2
                await page.wait_for_function(
                    """card => [...document.querySelectorAll('#hand button.cardbtn')].some(
                        b => Number(b.dataset.card) === card
                             && b.getAttribute('aria-pressed') === 'true')
                       || !document.querySelector(`#hand button[data-card="${card}"]`)""",
                    arg=target,
                    timeout=TIMEOUT_MS,
                )
                played += 1
            else:
                # A card lower than every row: the focus is on the first row's button; the
                # player takes row 1 (Enter) or the last (End, Enter).
                assert shown["focusRow"] == 1, repr(shown)
                take_last = rng.random() < 0.5
                if take_last:
                    await page.keyboard.press("End")
                    presses += 1
                await page.keyboard.press("Enter")
                presses += 1
                await page.wait_for_function(
                    "() => !document.querySelector('#rows button.rowbtn')", timeout=TIMEOUT_MS
                )
                rows_taken += 1
            presses_each.append(presses)
            assert presses <= MAX_PRESSES

        assert played == HAND_SIZE, (played, presses_each)
        final = await page.evaluate(READ)
        # The rows read "Row 1: 60, 93; 4 heads" ("Rangée 1 : …" once translated).
        for label, cards in zip(final["rowLabels"], final["rowCards"], strict=True):
            assert re.fullmatch(r"\w+ [1-4]\s?: " + ", ".join(cards) + r"\s?; \d+ \w+", label), (
                label
            )
        assert final["announcerLive"] == "polite" and not final["announcerInLive"]
        if locale.startswith("en"):
            # The last turn's plays were read out ("Kim plays 42 on row 3." ...).
            assert re.search(r"\w+ plays \d+ (on|and takes) row [1-4]", final["announcer"]), final[
                "announcer"
            ]
            said = await page.evaluate("window.saidAloud")
            assert sum("It is your turn." in text for text in said) >= HAND_SIZE, said
        lost = await page.evaluate("window.focusLost")
        assert lost == [], f"the focus fell to <body> after frames at versions {lost}"
        assert await page.evaluate("window.framesSeen") > HAND_SIZE
        assert errors == []
    finally:
        await context.close()
