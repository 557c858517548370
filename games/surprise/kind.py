"""6 qui surprend as the site plays it: its lobby options, summary, paper sheet,
league scoring, replay and live board, registered by its app (games.surprise.apps)."""

from functools import partial

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import paper
from games.kinds import Kind, OptionsForm
from games.nimmt.kind import (
    card_words,
    column_totals,
    heads_amount,
    most_heads,
    own_hand,
    rows_board,
    seat_pile,
)
from games.replays import decision_steps, rebuild
from games.surprise import bots as surprise_bots
from games.surprise import engine as surprise_engine
from games.surprise import replay
from games.surprise.bots.usage import SpecialUsage


class SurpriseOptions(OptionsForm):
    """RULES §2.5: of the §1 options only `live_scores` applies (always 2 rounds of 12)."""

    live_scores = forms.BooleanField(
        label=_("Show scores during the round"), required=False, initial=True
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        return {"live_scores": data["live_scores"]}


def _surprise_sheet(lines, players):
    # RULES §2.5: 12 cards a player and 4 rows (5 with 5e série: one more card).
    return paper.heads_sheet(lines, players, most=most_heads(12 * players + 5))


def _surprise_summary(options: dict) -> str:
    """Always the same game (RULES §2.5): its rounds, its specials, and when scores show."""
    rounds = surprise_engine.cards.ROUNDS
    parts = [ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds}, gettext("specials")]
    if not options.get("live_scores", True):
        parts.append(gettext("scores at round end"))
    return ", ".join(parts)


def _asked(v):
    """The seat a prompt asks while a turn resolves (a row, a Stop, Insérer, Glisser...)."""
    return v["prompt"]["seat"] if v["prompt"] else None


# The prompts a seat answers with its own cards or specials, in its hand: the others
# (a row, a Stop, Insérer, Glisser) are answered on the rows.
_HAND_PROMPTS = ("remplacer", "negatif_positif", "exchange")


def _own_hand(view) -> dict:
    """The seat's hand, and whether the decision asked of it is made there (issue 31: a
    hand that is not asked folds to one line)."""
    prompt = view["prompt"]
    asked_here = bool(prompt) and prompt["seat"] == view["seat"]
    context = own_hand(surprise_engine, view)
    context["hand_asked"] = context["can_select"] or (
        asked_here and prompt["kind"] in _HAND_PROMPTS
    )
    return context


def _selection(view):
    # RULES 2.5: the special attached goes with the card; changing it alone is a change.
    if view["my_special"] is not None:
        return (view["my_selection"], view["my_special"])
    return view["my_selection"]


def describe_decision(decision: dict) -> str:
    """A decision as the review names it: a card (with its special), a row, an answer to
    a special's question (RULES §2)."""
    from games.surprise.templatetags.surprise import special_name

    kind = decision["type"]
    card = decision.get("card")
    if kind == "select":
        words = card_words(surprise_engine, card)
        if decision.get("special"):
            # Translators: a card played with a special card, e.g. "44 (3 heads) + Stop".
            words = gettext("%(card)s + %(special)s") % {
                "card": words,
                "special": special_name(decision["special"]),
            }
        return words
    if kind in ("row", "stop"):
        text = gettext("take row %(n)s") if kind == "row" else gettext("Stop on row %(n)s")
        return text % {"n": decision["row"] + 1}
    if kind == "remplacer":
        if card is None:
            return gettext("keep the card")
        return gettext("replace it with %(card)s") % {"card": card_words(surprise_engine, card)}
    if kind == "inserer":
        return gettext("insert in row %(n)s, place %(p)s") % {
            "n": decision["row"] + 1,
            "p": decision["position"] + 1,
        }
    if kind == "glisser":
        return gettext("slide from row %(a)s to row %(b)s") % {
            "a": decision["from"][0] + 1,
            "b": decision["to"][0] + 1,
        }
    if kind == "negatif_positif":
        if card is None:
            return gettext("not now")
        extras = len(decision.get("extras") or ())
        return ngettext(
            "give back %(card)s and %(n)s more card",
            "give back %(card)s and %(n)s more cards",
            extras,
        ) % {"card": card_words(surprise_engine, card), "n": extras}
    if decision.get("special"):
        return gettext("exchange %(special)s") % {"special": special_name(decision["special"])}
    return gettext("no exchange")


def replay_steps(game) -> list[int]:
    """The replay's step of each decision: the reveal or the answer that shows it (a
    selection not yet revealed is shown by its turn's reveal)."""
    moments = [
        at
        for at, (_state, events) in enumerate(rebuild(game))
        if at == 0 or not all(event["type"] == "selected" for event in events)
    ]
    return decision_steps(moments, game.decisions.count())


SURPRISE = Kind(
    name=surprise_engine.KIND,
    label=_("6 qui surprend"),
    engine=surprise_engine,
    options_form=SurpriseOptions,
    players=range(surprise_engine.cards.MIN_PLAYERS, surprise_engine.cards.MAX_PLAYERS + 1),
    summary=_surprise_summary,
    bots=surprise_bots.BOTS,
    bot_choices=surprise_bots.BOT_CHOICES,
    bot_notes=surprise_bots.BOT_NOTES,
    replay_context=replay.surprise_replay_context,
    # Heads per round, fewer is better: the same sheet as 6 qui prend !'s.
    league_totals=column_totals,
    paper_sheet=_surprise_sheet,
    sheet_lines=lambda options: surprise_engine.cards.ROUNDS,
    # The rows, the piles and the hand of numbered cards are 6 qui prend !'s (RULES §2).
    board_context=partial(rows_board, surprise_engine),
    player_context=seat_pile,
    hand_context=_own_hand,
    actor=_asked,
    selection=_selection,
    stylesheet="games/surprise/table.css",
    script="games/surprise/reveal.js",
    simulation_watch=SpecialUsage,
    describe_decision=describe_decision,
    describe_amount=heads_amount,
    replay_steps=replay_steps,
)
