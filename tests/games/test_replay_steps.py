"""The replay viewer: one step per turn of every round, each labelled with the turn whose
cards it shows, and the game's end; the names the table page shows (issue 21, items 1,
2 and 6).

The finished games are played through the services; what each step must show is read
from the game's state afterwards, with the engine's game log (games/nimmt/engine/log.py),
which places every finished turn again from the rows its round started with.
"""

import json
import re

import pytest

from games import engine, services
from games.models import Game
from games.nimmt.engine.log import log as game_log
from games.nimmt.engine.log import turn_plays

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


def finished_game(alice, others=(), bots=("random",), rounds=1, options=None):
    """A game Alice played to its end with her lowest card (and the cheapest row)."""
    options = options or {"end": "rounds", "rounds": rounds}
    table = services.table_create(
        user=alice, seats_count=1 + len(others) + len(bots), options=options
    )
    for user in others:
        services.seat_join(table_id=table.pk, user=user)
    for bot in bots:
        services.seat_add_bot(table_id=table.pk, user=alice, bot=bot)
    services.table_start(table_id=table.pk, user=alice)
    players = [alice, *others]
    for _ in range(2000):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state):
            return table, state
        seat = nimmt.to_act(state)[0]
        services.game_decide(
            table_id=table.pk, user=players[seat], decision=nimmt.fallback(state, seat)
        )
    raise AssertionError("the game did not end")


def replay_page(client, table, step, language="en"):
    response = client.get(f"/tables/{table.pk}/replay/?step={step}", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response


def label(response) -> str:
    nav = re.search(r'<nav class="stepper".*?</nav>', response.content.decode(), re.S).group()
    text = re.search(r"<span[^>]*>(.*?)</span>", nav, re.S).group(1)
    return " ".join(text.split())


def every_step(client, table, language="en"):
    first = replay_page(client, table, 0, language)
    return [first] + [
        replay_page(client, table, step, language) for step in range(1, first.context["steps"] + 1)
    ]


def test_every_turn_of_every_round_has_its_step_named_after_it(alice_client, alice):
    table, state = finished_game(alice, rounds=2)
    labels = [label(response).split(" (")[0] for response in every_step(alice_client, table)]
    expected = []
    for number in (1, 2):
        expected.append(f"Round {number}: the deal")
        expected += [f"Round {number}, turn {turn}" for turn in range(1, 11)]
    expected.append("End of the game")
    assert labels == expected


def test_each_turns_step_shows_that_turns_cards_where_they_went_and_the_takes(
    alice_client, alice, bob
):
    table, state = finished_game(alice, others=[bob], bots=["random", "heuristic"], rounds=2)
    names = ["Alice", "Bob", "Random bot", "Heuristic bot"]
    steps = every_step(alice_client, table)
    turns = [response.context for response in steps if response.context["turn"] is not None]
    entries = game_log(state)
    assert len(turns) == len(entries) == 20
    takes = 0
    for context, entry in zip(turns, entries, strict=True):
        assert (context["round"], context["turn"]) == (entry["round"], entry["turn"])
        shown = [
            {
                "name": play["name"],
                "card": play["card"]["number"],
                "row": play["row"],
                "took": [card["number"] for card in play["took"]] if play["took"] else None,
                "heads": play["heads"],
            }
            for play in context["plays"]
        ]
        # In the order they were placed, rows counted from 1.
        assert shown == [
            {
                "name": names[play["seat"]],
                "card": play["card"],
                "row": play["row"] + 1,
                "took": play["took"],
                "heads": play["heads"],
            }
            for play in entry["plays"]
        ]
        takes += sum(1 for play in entry["plays"] if play["took"])
    assert takes, "no row was taken in the whole game: nothing was checked of takes"


def test_the_board_hands_and_scores_of_each_step_are_those_after_its_turn(alice_client, alice):
    table, state = finished_game(alice, bots=["random", "random"], rounds=2)
    steps = [response.context for response in every_step(alice_client, table)]
    totals = [0, 0, 0]
    index = 0
    for number, (start_rows, start_hands, _picks, turns) in enumerate(state.history, 1):
        deal = steps[index]
        assert (deal["round"], deal["turn"]) == (number, None)
        assert [[card["number"] for card in row] for row in deal["rows"]] == [
            list(row) for row in start_rows
        ]
        assert [[c["number"] for c in hand["cards"]] for hand in deal["hands"]] == [
            list(hand) for hand in start_hands
        ]
        rows, hands, heads = start_rows, [list(hand) for hand in start_hands], [0, 0, 0]
        for turn, (cards, choices) in enumerate(turns, 1):
            plays, rows = turn_plays(rows, cards, choices)
            for seat, card in enumerate(cards):
                hands[seat].remove(card)
            for play in plays:
                heads[play["seat"]] += sum(nimmt.heads(card) for card in play["took"] or ())
            step = steps[index + turn]
            assert step["turn"] == turn
            assert [[card["number"] for card in row] for row in step["rows"]] == [
                list(row) for row in rows
            ]
            assert [[c["number"] for c in hand["cards"]] for hand in step["hands"]] == hands
            assert [line["round"] for line in step["totals"]] == heads
            assert [line["total"] for line in step["totals"]] == [
                before + now for before, now in zip(totals, heads, strict=True)
            ]
        assert heads == list(state.round_scores[number - 1])
        totals = [before + now for before, now in zip(totals, heads, strict=True)]
        index += 1 + len(turns)
    end = steps[index]
    assert index == len(steps) - 1 and end["next"] is None
    assert end["round"] is None and end["turn"] is None and end["plays"] == []
    assert [line["total"] for line in end["totals"]] == Game.objects.get().result["totals"]
    winners = Game.objects.get().result["winners"]
    assert [line["winner"] for line in end["totals"]] == [seat in winners for seat in range(3)]


def test_no_step_reads_none(alice_client, alice):
    table, _state = finished_game(alice)
    for language in ("en", "fr"):
        for response in every_step(alice_client, table, language):
            assert "None" not in response.content.decode()
    assert label(replay_page(alice_client, table, 999, "fr")).startswith("Fin de la partie")
    assert label(replay_page(alice_client, table, 10, "fr")).startswith("Manche 1, tour 10")


def test_a_draft_game_replays_from_the_rows_its_draft_laid(alice_client, alice):
    table, state = finished_game(
        alice, options={"end": "rounds", "rounds": 1, "deal": "draft", "card_limit": True}
    )
    steps = every_step(alice_client, table)
    start_rows, start_hands, _picks, turns = state.history[0]
    deal = steps[0].context
    assert [[card["number"] for card in row] for row in deal["rows"]] == [
        list(row) for row in start_rows
    ]
    assert [[c["number"] for c in hand["cards"]] for hand in deal["hands"]] == [
        list(hand) for hand in start_hands
    ]
    assert [label(response).split(" (")[0] for response in steps][-2:] == [
        "Round 1, turn 10",
        "End of the game",
    ]
    assert [play["card"]["number"] for play in steps[10].context["plays"]] == sorted(turns[9][0])


def test_the_replay_shows_display_names_and_the_record_keeps_usernames(alice_client, alice):
    table, _state = finished_game(alice, bots=["heuristic"])
    english = replay_page(alice_client, table, 1).content.decode()
    french = replay_page(alice_client, table, 1, "fr").content.decode()
    for page, bot in ((english, "Heuristic bot"), (french, "Robot malin")):
        assert "Alice" in page and bot in page
        assert "alice" not in page.replace("/alice", "") and "bot:heuristic" not in page
    # RULES §4.1: a record names each seat by a stable identifier, the same in any
    # language: the username, or the bot's name.
    record = json.loads(alice_client.get(f"/tables/{table.pk}/record.json").content)
    assert record["players"] == ["alice", "bot:heuristic"]


def test_with_live_scores_off_the_replay_still_shows_every_takes_heads(alice_client, alice):
    # RULES §1.5 hides the heads of the round in play; a replay is of a game over.
    options = {"end": "rounds", "rounds": 1, "live_scores": False}
    table, state = finished_game(alice, bots=["random", "random"], options=options)
    plays = [
        play for response in every_step(alice_client, table) for play in response.context["plays"]
    ]
    takes = [play for play in plays if play["took"]]
    assert takes
    for play in takes:
        assert play["heads"] == sum(card["heads"] for card in play["took"])
    assert all(play["heads"] is None for play in plays if not play["took"])
