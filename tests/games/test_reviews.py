"""Issue 35: the post-game review. Each player's decisions with the expert's estimate of
each option she had, computed from what she saw then, the same every time, and shown to
her only once the game (and every table of its deal) is over."""

import time

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine, kinds, reviews, services
from games.bots import get_bot
from games.models import Decision, Game, Review, Table

pytestmark = pytest.mark.django_db

GAMES = {
    "nimmt": {"end": "rounds", "rounds": 1},
    "surprise": {"live_scores": True},
    "six": {"end": "hands", "hands": 1},
}


def client_of(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def start(kind, users, seed=11) -> Table:
    table = services.table_create(
        user=users[0], kind=kind, seats_count=len(users), options=GAMES[kind], deal_seed=seed
    )
    for user in users[1:]:
        services.seat_join(table_id=table.pk, user=user)
    services.table_start(table_id=table.pk, user=users[0])
    return table


def play(table, until_over=True, decisions=None) -> Game:
    """Every seat plays the fallback's decision, through the services, to the end (or for
    `decisions` decisions)."""
    rules = engine.get(table.kind)
    users = {seat.position: seat.user for seat in table.seats.all()}
    for _ in range(decisions or 2000):
        state = rules.load(Game.objects.get(table=table).state)
        if rules.is_over(state):
            break
        seat = min(rules.to_act(state))
        decision = rules.fallback(state, seat)
        services.game_decide(table_id=table.pk, user=users[seat], decision=decision)
    return Game.objects.get(table=table)


@pytest.fixture
def carol(make_player):
    return make_player("carol", display_name="Carol")


@pytest.fixture
def finished(alice, bob):
    """A finished game of 6 qui prend ! between Alice and Bob, reviewed."""
    table = start("nimmt", [alice, bob])
    game = play(table)
    reviews.review_game(game)
    return table


@pytest.mark.parametrize("kind", GAMES)
def test_a_review_covers_every_decision_of_each_player(kind, alice, bob):
    table = start(kind, [alice, bob])
    game = play(table)
    assert game.finished_at is not None
    started = time.process_time()
    by_seat = {review.seat: review for review in reviews.review_game(game)}
    spent = time.process_time() - started
    assert set(by_seat) == {0, 1}
    for seat, review in by_seat.items():
        made = list(game.decisions.filter(seat=seat).values_list("seq", flat=True))
        assert sorted(entry["seq"] for entry in review.decisions) == made
        costs = [entry["cost"] for entry in review.decisions]
        assert costs == sorted(costs, reverse=True), "the costliest first"
        assert review.cost == pytest.approx(sum(costs), abs=0.05)
        for entry in review.decisions:
            assert entry["cost"] >= 0
            chosen = entry["options"][entry["choice"]]["decision"]
            mine = Decision.objects.get(game=game, seq=entry["seq"]).payload
            assert reviews._plain(chosen) == reviews._plain(mine)
    # Every decision has its words and the amount its unit.
    kind_ = kinds.get(kind)
    lines = reviews.review_lines(by_seat[0], kind_)
    assert all(option["text"] for line in lines["decisions"] for option in line["options"])
    print(f"{kind}: {game.decisions.count()} decisions reviewed in {spent:.1f} s of CPU")


@pytest.mark.parametrize("kind", ["nimmt", "six"])
def test_a_review_is_the_same_every_time(kind, alice, bob):
    game = play(start(kind, [alice, bob]))
    first = [(r.seat, r.cost, r.decisions) for r in reviews.review_game(game)]
    again = [(r.seat, r.cost, r.decisions) for r in reviews.review_game(game)]
    assert first == again
    assert Review.objects.filter(game=game).count() == 2


def test_a_decision_review_of_6_qui_surprend_is_the_same_every_time(alice, bob):
    game = play(start("surprise", [alice, bob]), decisions=6)
    rules = engine.get("surprise")
    state = rules.load(game.state)
    seat = min(rules.to_act(state))
    view = rules.view(state, seat)
    decision = rules.fallback(state, seat)
    twice = [
        reviews.review_decision(
            get_bot("surprise_expert", seed=reviews.review_seed(game, seat)), view, decision, False
        )
        for _ in range(2)
    ]
    assert twice[0] == twice[1]


@pytest.mark.parametrize("kind", GAMES)
def test_the_review_of_a_decision_does_not_depend_on_the_other_hands(kind, alice, bob, carol):
    """The other players' cards swapped, the player's view is the same, and so is the
    review of her decision: it sees only what she saw."""
    table = start(kind, [alice, bob, carol])
    rules = engine.get(kind)
    game = play(table, decisions=3)
    state = rules.load(game.state)
    seat = min(rules.to_act(state))
    first, second = (other for other in range(3) if other != seat)
    # A card of each of the two others changes hands: their counts stay what she sees.
    data = rules.dump(state)
    hands = data["hands"]
    hands[first][0], hands[second][0] = hands[second][0], hands[first][0]
    swapped = rules.load(data)
    assert swapped.hands != state.hands
    view, view_swapped = rules.view(state, seat), rules.view(swapped, seat)
    assert view == view_swapped
    decision = rules.fallback(state, seat)
    expert = kinds.get(kind).strongest_bot
    seed = reviews.review_seed(game, seat)
    review = reviews.review_decision(get_bot(expert, seed=seed), view, decision, False)
    review_swapped = reviews.review_decision(
        get_bot(expert, seed=seed), view_swapped, decision, False
    )
    assert review == review_swapped


def test_the_finished_table_shows_her_own_review_only(finished, alice, bob, carol):
    page = client_of(alice).get(reverse("table", args=[finished.pk])).content.decode()
    assert 'id="review"' in page and "Your review" in page
    assert 'data-review-seat="0"' in page and 'data-review-seat="1"' not in page
    assert "against the expert" in page
    page = client_of(bob).get(reverse("table", args=[finished.pk])).content.decode()
    assert 'data-review-seat="1"' in page and 'data-review-seat="0"' not in page
    spectator = client_of(carol).get(reverse("table", args=[finished.pk])).content.decode()
    assert 'id="review"' not in spectator and "data-review-seat" not in spectator


def test_a_superuser_reads_every_review(finished, make_player):
    boss = make_player("boss", is_staff=True, is_superuser=True)
    page = client_of(boss).get(reverse("table", args=[finished.pk])).content.decode()
    assert 'data-review-seat="0"' in page and 'data-review-seat="1"' in page


def test_the_review_speaks_french(finished, alice):
    page = client_of(alice, "fr").get(reverse("table", args=[finished.pk])).content.decode()
    with translation.override("fr"):
        assert translation.gettext("Your review") in page
    assert " tête" in page  # the amounts, in the game's unit


def test_the_replay_shows_her_estimates_at_the_step_of_her_decision(finished, alice, carol):
    review = Review.objects.get(game__table=finished, seat=0)
    entry = review.decisions[0]
    url = reverse("table_replay", args=[finished.pk]) + f"?step={entry['step']}"
    page = client_of(alice).get(url).content.decode()
    assert 'id="replay-review"' in page
    assert f'data-review-seq="{entry["seq"]}"' in page
    assert "data-review-seat" in page
    spectator = client_of(carol).get(url).content.decode()
    assert "replay-review" not in spectator


def test_a_review_waits_to_be_computed(alice, bob):
    table = start("nimmt", [alice, bob])
    play(table)
    page = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    assert "Your review is being prepared." in page


def test_the_game_end_queues_the_review(alice, bob, django_capture_on_commit_callbacks, settings):
    settings.SIXCLUB_REVIEWS = True
    table = start("nimmt", [alice, bob])
    play(table, decisions=19)
    with django_capture_on_commit_callbacks(execute=True):
        play(table)
    # The tests' task backend runs a task at once.
    assert Review.objects.filter(game__table=table).count() == 2


def test_the_command_reviews_an_older_game(alice, bob, capsys):
    table = start("six", [alice, bob])
    play(table)
    call_command("review_game", str(table.pk))
    assert Review.objects.filter(game__table=table).count() == 2
    assert "2 seat(s) reviewed" in capsys.readouterr().out


def test_no_review_is_shown_before_the_end(alice, bob):
    table = start("nimmt", [alice, bob])
    game = play(table, decisions=6)
    reviews.review_game(game)  # even computed, it stays unread while the game is played
    assert reviews.review_shown(table, alice).status == "none"
    page = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    assert "data-review-seat" not in page and "Your review" not in page
    assert client_of(alice).get(reverse("table_replay", args=[table.pk])).status_code == 404


def test_no_review_is_shown_while_the_deal_is_played_at_another_table(alice, bob, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    here = start("nimmt", [alice, bob], seed=5)
    start("nimmt", [ann, ben], seed=5)  # the same deal, still played
    reviews.review_game(play(here))
    assert reviews.review_shown(Table.objects.get(pk=here.pk), alice).status == "closed"
    page = client_of(alice).get(reverse("table", args=[here.pk])).content.decode()
    assert "data-review-seat" not in page
    assert "Your review opens when every table dealt the same cards has finished." in page
    replay = client_of(alice).get(reverse("table_replay", args=[here.pk]) + "?step=3")
    assert replay.status_code == 403 and b"data-review" not in replay.content
