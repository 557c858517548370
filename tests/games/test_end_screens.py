"""Issue 30: each game's end screen shows what that game scores, a count that may be
negative takes its plural from its size in French, Six says "hand" ("donne") for a deal
everywhere, and each game's table declares what its reveal animation shows."""

import re

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine, kinds, services
from games.models import Game, Seat, Table

six = engine.get("six")


def client_of(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def ranking_of(page: str) -> str:
    match = re.search(r'<section class="card ranking" id="ranking">.*?</section>', page, re.S)
    assert match, "no end screen"
    return match.group(0)


def live_of(page: str) -> str:
    """The `#live` part of a table page (the sections of the game)."""
    return page[page.index('<div id="live"') : page.index('id="prefs"')]


def cells(section: str) -> list[list[str]]:
    """The end screen's table, hand by hand: one list of cell texts a player."""
    table = re.search(r'<table class="grid six-hands".*?</table>', section, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
        ]
        for row in rows
    ]


def play_six_to_the_end(alice, *, players=4, target=5, seed=3) -> Table:
    """Alice and bots play a table of Six to its end (Alice always plays her first card)."""
    table = services.table_create(
        user=alice,
        kind="six",
        seats_count=players,
        options={"deck": 40, "target": target},
        time_limit=0,
        deal_seed=seed,
    )
    for bot in ("six_heuristic", "six_random", "six_expert")[: players - 1]:
        services.seat_add_bot(table_id=table.pk, user=alice, bot=bot)
    services.table_start(table_id=table.pk, user=alice)
    for _ in range(200):
        state = six.load(Game.objects.get(table=table).state)
        if six.is_over(state):
            return table
        # The bots play their own turns at once: the turn awaited is Alice's.
        (card,) = [six.legal(state, 0)[0]["card"]]
        services.game_decide(
            table_id=table.pk, user=alice, decision={"type": "select", "card": card}
        )
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_the_end_of_six_shows_each_hands_cards_left_and_points_and_nothing_taken(alice):
    table = play_six_to_the_end(alice)
    game = Game.objects.get(table=table)
    rounds, totals = game.result["rounds"], game.result["totals"]
    names = [seat.name for seat in Seat.objects.filter(table=table).order_by("position")]
    page = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    end = ranking_of(page)

    assert "Final ranking" in end and 'id="winner-banner"' in end
    live = live_of(page)
    for word in ("Nothing taken", "Picked-up piles", "Cards taken", "Round", "heads"):
        assert word not in live, word
    header, *lines = cells(end)
    assert header == ["Player", *[f"Hand {n}" for n in range(1, len(rounds) + 1)], "Total"]
    # Highest total first (RULES 3.3), as the ranking reads.
    order = sorted(range(len(names)), key=lambda seat: -totals[seat])
    assert [line[0] for line in lines] == [str(names[seat]) for seat in order]
    for line, seat in zip(lines, order, strict=True):
        for cell, points in zip(line[1:-1], (hand[seat] for hand in rounds), strict=True):
            # RULES 3.3: the winner of the hand had no card left, the others lose theirs.
            left = 0 if points > 0 else -points
            shown = f"+{points}" if points > 0 else str(points)
            word = "card" if left == 1 else "cards"
            assert cell == f"{shown} {left} {word} left", (cell, points)
        assert line[-1] == str(totals[seat])
    # The score sheet does not repeat it once the game is over.
    assert 'id="score-sheet"' not in page
    # The ranking in points, the record and the replay.
    assert f'href="/tables/{table.pk}/replay/"' in end


@pytest.mark.django_db
def test_the_end_of_six_in_french_says_donne_and_negative_points_in_the_plural(alice):
    table = play_six_to_the_end(alice, seed=8)
    totals = Game.objects.get(table=table).result["totals"]
    assert min(totals) < -1, "the deal seed gives a total of -2 or fewer"
    page = client_of(alice, "fr").get(reverse("table", args=[table.pk])).content.decode()
    end = ranking_of(page)
    assert "Classement final" in end and "Donne par donne" in end and "Donne 1" in end
    assert "manche" not in live_of(page).lower()
    shown = re.findall(r"<li>\d+\. [^<]*? — (-?\d+) (points?)", end)
    assert sorted(int(total) for total, _word in shown) == sorted(totals)
    for total, word in shown:
        # French: the singular for 0, 1 and -1 only, as for 1 (RULES' "-5 points").
        assert word == ("point" if abs(int(total)) <= 1 else "points"), (total, word)
    assert "carte restante" in end or "cartes restantes" in end


def six_end_context(totals, rounds, seats):
    from games.rendering.snapshots import _ranking

    v = {"round_scores": rounds, "totals": totals, "result": {"totals": totals, "winners": [0]}}
    return {
        "v": v,
        "seats": seats,
        "ranking": _ranking(v, seats, True),
        "winners": [seats[0].name],
        "table": Table(pk=4321, kind="six"),
        "deal_closed": False,
    }


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            ["1. Ann — 11 points", "2. Ben — -1 point", "2. Cid — -1 point", "4. Dan — -5 points"],
        ),
        (
            "en",
            ["1. Ann — 11 points", "2. Ben — -1 point", "2. Cid — -1 point", "4. Dan — -5 points"],
        ),
    ],
)
def test_negative_points_take_the_plural_of_their_size(language, expected):
    # A seat not held by a player shows its bot's name (an unknown bot: as it is).
    seats = [Seat(position=i, bot=name) for i, name in enumerate(("Ann", "Ben", "Cid", "Dan"))]
    context = six_end_context([11, -1, -1, -5], [[11, -1, -1, -5]], seats)
    with translation.override(language):
        end = render_to_string("games/six/live.html#ranking", context)
    lines = [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li>(.*?)</li>", end)]
    assert [line.rstrip(" ★") for line in lines] == expected
    if language == "fr":
        assert "-5 point<" not in end and "-5 point " not in end
        assert "0 carte restante" in end and "5 cartes restantes" in end


@pytest.mark.parametrize(
    ("total", "word"), [(-5, "points"), (-1, "point"), (0, "point"), (3, "points")]
)
def test_the_shared_ranking_words_a_negative_total_by_its_size_in_french(total, word):
    template = Template(
        "{% load i18n numbers %}{% blocktranslate count n=total|abs with total=total %}"
        "{{ total }} point{% plural %}{{ total }} points{% endblocktranslate %}"
    )
    with translation.override("fr"):
        assert template.render(Context({"total": total})) == f"{total} {word}"


def test_the_abs_filter_leaves_what_is_not_a_number():
    template = Template("{% load numbers %}{{ a|abs }} {{ b|abs }} {{ c|abs }}")
    assert template.render(Context({"a": -7, "b": 2, "c": "x"})) == "7 2 x"


@pytest.mark.django_db
def test_six_during_a_game_says_hand_in_both_languages(alice):
    # A game to 200 points, read once its first hand is over and the next one is on.
    table = services.table_create(
        user=alice, kind="six", seats_count=2, options={"deck": 40, "target": 200}
    )
    services.seat_add_bot(table_id=table.pk, user=alice, bot="six_heuristic")
    services.table_start(table_id=table.pk, user=alice)
    for _ in range(300):
        state = six.load(Game.objects.get(table=table).state)
        if len(state.round_scores) >= 1 and state.turns:
            break
        services.game_decide(
            table_id=table.pk,
            user=alice,
            decision={"type": "select", "card": six.legal(state, 0)[0]["card"]},
        )
    english = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    french = client_of(alice, "fr").get(reverse("table", args=[table.pk])).content.decode()
    assert "<th>Hand</th>" in live_of(english) and "Round" not in live_of(english)
    assert "<th>Donne</th>" in live_of(french) and "manche" not in live_of(french).lower()


def test_each_game_loads_its_own_reveal_and_the_shared_code_names_none():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for kind in ("nimmt", "six", "surprise"):
        script = kinds.get(kind).script
        assert script == f"games/{kind}/reveal.js"
        source = (root / "games" / kind / "static" / script).read_text()
        assert f'sixclubReveal.define("{kind}"' in source
    shared = (root / "static" / "js" / "live.js").read_text()
    for word in ("nimmt", "six", "surprise", "surprend"):
        assert not re.search(rf"\b{word}\b", shared, re.I), word


@pytest.mark.django_db
def test_the_table_page_loads_the_games_reveal_after_the_shared_code(alice):
    table = services.table_create(
        user=alice, kind="surprise", seats_count=2, options={"live_scores": True}
    )
    page = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    shared = page.index("js/live.js")
    own = page.index("games/surprise/reveal.js")
    assert shared < own
