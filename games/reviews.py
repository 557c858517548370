"""The post-game review: each decision of each player of a finished game, with the
expert's estimate of every option she had, her choice and the expert's, the costliest
first (issue 35).

A review is computed once the game is over (a task, games.tasks.review_game, queued when
the game ends; `manage.py review_game` for older games) and stored (models.Review). Its
decision reviews see what the player saw then, and nothing else: the expert is given
`engine.view(state, seat)` before her decision, never the state. It is shown only to her
(and to superusers), and only once the game's deal is no secret any more (`review_shown`).

The estimates are each game's expert's (`estimates(view, also=)`, docs/engines.md), with
its fixed budget and a seed fixed by the game and seat: the same game always gets the
same review.
"""

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games import kinds, selectors, signals
from games.bots import get_bot
from games.models import Decision, Game, Review, Table

# How many decisions a page lists before "the rest are cheaper" (the costliest first).
SHOWN = 40


def review_seed(game: Game, seat: int) -> int:
    """The expert's seed for reviewing `seat`'s decisions in `game`: fixed by both."""
    digest = hashlib.blake2b(repr(("review", game.seed, seat)).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


def _plain(decision: dict) -> dict:
    # A decision as the log keeps it and as a bot writes it may differ in a None field.
    return {key: value for key, value in decision.items() if value is not None}


def decision_point(view: dict) -> tuple:
    """What tells one decision point from the next in a seat's view: a selection changed
    before the reveal (RULES 1.3) is the same point, and only its last one counts."""
    draft = view.get("draft") or {}
    return (
        view.get("phase"),
        view.get("round"),
        view.get("turn"),
        len(draft.get("picks", ())),
        view.get("version") if view.get("prompt") else None,
    )


def review_decision(expert, view: dict, decision: dict, higher_wins: bool) -> dict:
    """One decision's review from the seat's `view` alone: the options the expert weighed
    with its estimates (best first), her choice among them (`choice`, an index), and what
    it cost against the expert's choice (the first), in the game's direction, never below 0.

    `estimated` is False when the expert gave every option 0.0: it does not estimate that
    kind of decision (docs/engines.md), and the review shows the options without figures."""
    listed = expert.estimates(view, also=decision)
    options = [{"decision": option, "estimate": round(float(value), 2)} for option, value in listed]
    mine = _plain(decision)
    choice = next(
        (index for index, option in enumerate(options) if _plain(option["decision"]) == mine),
        None,
    )
    if choice is None:  # not among the expert's: listed last, without an estimate
        options.append({"decision": decision, "estimate": None})
        choice = len(options) - 1
    estimated = any(option["estimate"] for option in options if option["estimate"] is not None)
    cost = 0.0
    if estimated and options[choice]["estimate"] is not None and choice != 0:
        difference = options[choice]["estimate"] - options[0]["estimate"]
        cost = max(0.0, -difference if higher_wins else difference)
    return {"options": options, "choice": choice, "cost": round(cost, 2), "estimated": estimated}


def review_game(game: Game) -> list[Review]:
    """Compute and store the review of each player's seat of a finished `game` (replacing
    any earlier one): every decision of her seat, hers and those the computer made for her
    (`source`), each from her view before it. Returns the reviews, by seat."""
    table = game.table
    kind = kinds.get(table.kind)
    game_engine = kind.engine
    humans = {seat.position: seat.user_id for seat in table.seats.all() if seat.user_id is not None}
    log = list(game.decisions.order_by("seq").values_list("seq", "seat", "payload", "source"))
    steps = kind.replay_steps(game) if kind.replay_steps else [0] * len(log)
    experts = {seat: get_bot(kind.strongest_bot, seed=review_seed(game, seat)) for seat in humans}
    entries = {seat: [] for seat in humans}
    state = game_engine.new_game(players=table.seats_count, options=table.options, seed=game.seed)
    last_point = {}  # seat -> the decision point of her last decision
    for index, (seq, seat, payload, source) in enumerate(log):
        if seat in humans:
            view = game_engine.view(state, seat)
            point = decision_point(view)
            if last_point.get(seat) == point:
                entries[seat].pop()  # a selection she changed: the last one counts
            entry = {
                "seq": seq,
                "step": steps[index],
                "round": view.get("round"),
                "turn": view.get("turn"),
                "source": source,
                "decision": payload,
                **review_decision(experts[seat], view, payload, kind.higher_wins),
            }
            entries[seat].append(entry)
            last_point[seat] = point
        state, _events = game_engine.apply(state, seat, payload)
    reviews = []
    with transaction.atomic():
        for seat, user_id in humans.items():
            decisions = sorted(entries[seat], key=lambda entry: (-entry["cost"], entry["seq"]))
            review, _created = Review.objects.update_or_create(
                game=game,
                seat=seat,
                defaults={
                    "user_id": user_id,
                    "cost": round(sum(entry["cost"] for entry in decisions), 2),
                    "decisions": decisions,
                    "computed_at": timezone.now(),
                },
            )
            reviews.append(review)
    return reviews


def reviewable(game: Game) -> bool:
    """A finished game played at the table (a paper game has no decisions to review)."""
    return (
        game.finished_at is not None
        and not game.table.paper
        and game.table.status == Table.Status.FINISHED
    )


@receiver(signals.game_finished, dispatch_uid="games.reviews")
def queue_review(sender, game, **kwargs):
    """Queue the game's review once its end is committed (the task reads the whole log),
    unless SIXCLUB_REVIEWS is off."""
    if not settings.SIXCLUB_REVIEWS:
        return
    if game.table.paper or not Decision.objects.filter(game=game).exists():
        return
    from games import tasks

    transaction.on_commit(lambda: tasks.review_game.enqueue(game.pk))


@dataclass(frozen=True)
class Shown:
    """What a viewer may see of a finished game's reviews (`review_shown`)."""

    # "none": nothing to show her (not seated, not finished, or not a game to review);
    # "closed": her game's deal is still played at another table; "pending": not
    # computed yet; "ready": `reviews` holds what she may read.
    status: str
    reviews: tuple = ()


def review_shown(table: Table, viewer, seat: int | None = None) -> Shown:
    """The one rule for every place a review shows (the table page, the replay): a seated
    player reads her own seat's review, a superuser anyone's (`seat`, or every seat), and
    only once the game is over and `selectors.shown_to` shows the table to her (a
    duplicate deal still played elsewhere hides it)."""
    if viewer is None or not viewer.is_authenticated:
        return Shown("none")
    game = Game.objects.filter(table=table).only("pk", "finished_at").first()
    if game is None or table.paper or table.status != Table.Status.FINISHED:
        return Shown("none")
    own = table.seats.filter(user=viewer.pk).values_list("position", flat=True).first()
    if own is None and not viewer.is_superuser:
        return Shown("none")
    if not Decision.objects.filter(game=game).exists():
        return Shown("none")
    if selectors.deal_in_play_elsewhere(table) and not viewer.is_superuser:
        return Shown("closed")
    if not Table.objects.filter(selectors.shown_to(viewer, ""), pk=table.pk).exists():
        return Shown("none")
    reviews = Review.objects.filter(game=game).order_by("seat")
    if not viewer.is_superuser:
        reviews = reviews.filter(seat=own)
    elif seat is not None:
        reviews = reviews.filter(seat=seat)
    elif own is not None:
        reviews = reviews.filter(seat=own)
    reviews = tuple(reviews)
    if not reviews:
        return Shown("pending")
    return Shown("ready", reviews)


def review_lines(review: Review, kind, *, step: int | None = None) -> dict:
    """A review as a page shows it, in the page's language: the summary, and each
    decision (costliest first; at `step` only those the replay shows there) with its
    options in the game's words, her choice and the expert's marked."""
    describe = kind.describe_decision or (lambda decision: ", ".join(map(str, decision.values())))
    decisions = []
    for entry in review.decisions:
        if step is not None and entry["step"] != step:
            continue
        options = [
            {
                "text": describe(option["decision"]),
                "estimate": kind.describe_amount(option["estimate"])
                if entry["estimated"] and option["estimate"] is not None
                else None,
                "mine": index == entry["choice"],
                "expert": index == 0,
            }
            for index, option in enumerate(entry["options"])
        ]
        decisions.append(
            {
                "seq": entry["seq"],
                "step": entry["step"],
                "round": entry["round"],
                "turn": entry["turn"],
                "by_computer": entry["source"] != Decision.Source.PLAYER,
                "cost": entry["cost"],
                "cost_text": kind.describe_amount(entry["cost"]),
                "estimated": entry["estimated"],
                "options": options,
            }
        )
    return {
        "review": review,
        "seat": review.seat,
        "cost": review.cost,
        "cost_text": kind.describe_amount(review.cost),
        "count": len(review.decisions),
        "decisions": decisions if step is not None else decisions[:SHOWN],
        "more": max(0, len(decisions) - SHOWN) if step is None else 0,
    }
