"""Every surprise bot answers every decision the view can await, legally (RULES §2.5)."""

import random
from collections import Counter, defaultdict

import pytest

from games.bots.base import NothingToDecide
from games.surprise import engine as surprise
from games.surprise.bots import BOT_CHOICES, BOTS, SurpriseExpertBot, awaited, legal_decisions
from games.surprise.engine.cards import HEADS

from .play import play

PROMPTS = {"remplacer", "row", "inserer", "glisser", "stop", "negatif_positif", "exchange"}


def fast_expert(seed):
    return SurpriseExpertBot(seed, placements=1_500)


def test_registry_names_every_bot():
    assert list(BOTS) == ["surprise_random", "surprise_heuristic", "surprise_expert"]
    # Strongest first: the table page's default (issue 31).
    assert [name for name, _ in BOT_CHOICES] == [
        "surprise_expert",
        "surprise_heuristic",
        "surprise_random",
    ]
    for name, bot in BOTS.items():
        assert bot.name == name


def test_legal_decisions_from_the_view_are_the_engines():
    """RULES 2.5: what the view allows is exactly the engine's `legal`, in every phase."""
    kinds = Counter()
    for seed in range(25):
        rng = random.Random(seed)
        state = surprise.new_game(players=2 + seed % 7, options={}, seed=seed)
        while not surprise.is_over(state):
            for seat in surprise.to_act(state):
                view = surprise.view(state, seat)
                assert legal_decisions(view) == surprise.legal(state, seat)
                kinds[awaited(view)] += 1
            seat = rng.choice(surprise.to_act(state))
            state, _ = surprise.apply(state, seat, rng.choice(surprise.legal(state, seat)))
    assert set(kinds) == {"select"} | PROMPTS


def test_nothing_to_decide_is_an_error():
    state = surprise.new_game(players=3, options={}, seed=1)
    for bot in (BOTS["surprise_random"](1), BOTS["surprise_heuristic"](1), fast_expert(1)):
        with pytest.raises(NothingToDecide):
            bot.decide(surprise.view(state, None))
    state, _ = surprise.apply(state, 0, {"type": "select", "card": state.hands[0][0]})
    with pytest.raises(NothingToDecide):
        BOTS["surprise_heuristic"](1).decide(surprise.view(state, 0))


def is_legal(state, seat, decision):
    """In the engine's `legal`, or (Négatif = Positif's extras are not all listed) a card
    just taken with extras of the own pile within its heads, which `apply` accepts."""
    if decision in surprise.legal(state, seat):
        return True
    if decision["type"] == "negatif_positif" and decision.get("card") in state.prompt[2]:
        extras = decision["extras"]
        pile = state.piles[seat]
        return (
            all(extra in pile for extra in extras)
            and sum(HEADS[extra] for extra in extras) <= HEADS[decision["card"]]
        )
    return False


@pytest.mark.parametrize("name", ["surprise_random", "surprise_heuristic", "surprise_expert"])
def test_bot_answers_every_decision_legally(name):
    """Over seeded games (the bot in every seat position, among random players who make
    the table busy with specials), every decision it makes is legal, and it meets every
    kind of decision."""
    make = fast_expert if name == "surprise_expert" else BOTS[name]
    games = 8 if name == "surprise_expert" else 40
    answered = defaultdict(int)
    specials = Counter()

    def check(state, seat, view, decision):
        if seat % 2 == 0:
            assert is_legal(state, seat, decision), (name, view, decision)
            answered[decision["type"]] += 1
            if decision["type"] == "select" and decision["special"]:
                specials[decision["special"]] += 1

    for seed in range(games):
        players = 2 + seed % 5
        bots = [
            make(seed * 10 + seat) if seat % 2 == 0 else BOTS["surprise_random"](seed + seat)
            for seat in range(players)
        ]
        play(bots, seed, check)
    assert {"select"} | PROMPTS <= set(answered), answered
    if name != "surprise_random":
        assert {"stop", "7_qui_surprend", "remplacer"} <= set(specials), specials
