"""6 qui prend ! as the site plays it: its lobby options, summary, paper sheet,
league scoring, replay and live board, registered by its app (games.nimmt.apps)."""

from functools import partial

from django import forms
from django.utils import formats
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import paper, rendering
from games.kinds import Kind, OptionsForm
from games.nimmt import engine as nimmt_engine
from games.nimmt import replay
from games.nimmt.bots import BOT_CHOICES, BOT_NOTES
from games.nimmt.bots import BOTS as NIMMT_BOTS
from games.nimmt.engine.options import DEFAULTS as NIMMT_DEFAULTS
from games.nimmt.engine.options import MAX_PLAYERS, MIN_PLAYERS
from games.replays import decision_steps, rebuild


class NimmtOptions(OptionsForm):
    """Every option of RULES §1.5–1.8."""

    end = forms.ChoiceField(
        label=_("End of the game"),
        initial="threshold",
        choices=[
            ("threshold", _("When a player reaches the threshold")),
            ("rounds", _("After a fixed number of rounds")),
        ],
    )
    threshold = forms.IntegerField(
        label=_("Threshold (heads)"), min_value=1, max_value=500, initial=66
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=20,
        initial=1,
        help_text=_("1 is the single-round variant."),
    )
    # A field that applies only for one value of another: the lobby shows it only then
    # (static/js/lobby.js), and a value in it refuses nothing otherwise (TableForm.clean).
    shown_when = {"threshold": ("end", "threshold"), "rounds": ("end", "rounds")}
    deal = forms.ChoiceField(
        label=_("Deal"),
        initial="random",
        choices=[
            ("random", _("Random deal")),
            ("draft", _("Draft: each player picks their cards")),
        ],
    )
    card_limit = forms.BooleanField(
        label=_("Tactical: only cards 1 to 10 × players + 4"), required=False
    )
    live_scores = forms.BooleanField(
        label=_("Show scores during the round"), required=False, initial=True
    )

    @classmethod
    def options(cls, data: dict) -> dict:
        options = {
            "card_limit": data["card_limit"],
            "deal": data["deal"],
            "end": data["end"],
            "live_scores": data["live_scores"],
        }
        if data["end"] == "threshold":
            options["threshold"] = data["threshold"]
        else:
            options["rounds"] = data["rounds"]
        return options


def column_totals(sheet) -> tuple[int, ...]:
    """Each seat's points over the rounds: heads taken, for 6 qui prend !."""
    return tuple(sum(column) for column in zip(*sheet, strict=True))


def most_heads(cards_in_play: int) -> int:
    """The most heads a round can hold: those of its heaviest cards (RULES §1.1)."""
    return sum(sorted(nimmt_engine.HEADS, reverse=True)[:cards_in_play])


def _nimmt_sheet(lines, players):
    # RULES §1.2: 10 cards a player and 4 rows.
    return paper.heads_sheet(lines, players, most=most_heads(10 * players + 4))


def _nimmt_summary(options: dict) -> str:
    """How the game ends ("to 66 heads", "3 rounds"), then the variants it plays."""
    if options.get("end") == "rounds":
        rounds = options["rounds"]
        parts = [ngettext("%(n)s round", "%(n)s rounds", abs(rounds)) % {"n": rounds}]
    else:
        threshold = options.get("threshold", NIMMT_DEFAULTS["threshold"])
        parts = [ngettext("to %(n)s head", "to %(n)s heads", abs(threshold)) % {"n": threshold}]
    if options.get("card_limit"):
        parts.append(gettext("tactical"))
    if options.get("deal") == "draft":
        parts.append(gettext("draft"))
    if not options.get("live_scores", True):
        parts.append(gettext("scores at round end"))
    return ", ".join(parts)


# --- its live table: the board, the players' piles, the hand (games.kinds.Kind's hooks).
# 6 qui surprend is played on the same rows with the same cards (games.surprise.kind):
# each function takes the engine whose heads it counts.

# A row's places: five cards, and the sixth that takes them (RULES §1.4), drawn empty.
ROW_SLOTS = 6


def card_faces(game_engine, cards) -> list[dict]:
    """Cards as the `card` filter draws them: {"number", "heads"} (RULES §1.1)."""
    heads = game_engine.heads
    return [{"number": card, "heads": heads(card)} for card in cards]


def rows_board(game_engine, v, seats, *, table, state, computer) -> dict:
    """The board of a game on rows of numbered cards: the rows, the turn being placed
    (`revealed`, and who chooses a row), the draft, the log of the round in play and its
    last turn, the end of the last round, the cards seen."""
    last = v.get("last_turn")
    turns = turn_log(game_engine, state, seats, v["round"], computer)
    if turns is None:  # an engine without a log: the view's last turn
        last_turn = _last_turn(game_engine, last, seats) if last and "cards" in last else last
    elif turns:
        last_turn = turns[-1]
    else:  # a new round is dealt at once: its first turn shows the last one played
        before = turn_log(game_engine, state, seats, v["round"] - 1, computer)
        last_turn = before[-1] if before else None
    heads = game_engine.heads
    return {
        "rows": [
            {
                "index": index,
                "number": index + 1,
                "cards": card_faces(game_engine, row),
                "heads": sum(heads(card) for card in row),
                "free": range(max(0, ROW_SLOTS - len(row))),
            }
            for index, row in enumerate(v["rows"])
        ],
        "chooser_name": seats[v["chooser"]].name if v["chooser"] is not None else "",
        "last_turn": last_turn,
        "turns": turns,
        "round_summary": _round_summary(v, seats),
        "revealed": _revealed(game_engine, v, seats),
        "draft": _draft(game_engine, v, seats),
        # The numbers of the cards seen (the panel lists numbers, not cards).
        "played": list(v["seen"]) if table.show_played else None,
    }


def turn_log(game_engine, state, seats, since_round, computer=frozenset()):
    """The finished turns of rounds `since_round` on, each card with its player's name, in
    the order it was placed (the engine's `log`); None for an engine without a log.
    `computer`: the (turn, seat) plays the computer made for their player, turns counted
    over the whole game, marked `computer`."""
    log = getattr(game_engine, "log", None)
    if log is None:
        return None
    heads = game_engine.heads
    # The turns are counted from the game's first only when some play is to be marked.
    entries = list(log(state, since_round=1 if computer else since_round))
    return [
        {
            "round": entry["round"],
            "turn": entry["turn"],
            "plays": [
                {
                    "seat": play["seat"],
                    "name": seats[play["seat"]].name,
                    "card": {"number": play["card"], "heads": heads(play["card"])},
                    "row": play["row"] + 1,
                    "took": card_faces(game_engine, play["took"]) if play["took"] else None,
                    "heads": play["heads"],
                    "computer": (index, play["seat"]) in computer,
                }
                for play in entry["plays"]
            ],
        }
        for index, entry in enumerate(entries)
        if entry["round"] >= since_round
    ]


def _last_turn(game_engine, last, seats):
    heads = game_engine.heads
    plays = [
        {
            "name": seats[seat].name,
            "card": {"number": card, "heads": heads(card)},
            "row": last["choices"].get(str(seat)),
        }
        for seat, card in enumerate(last["cards"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])


def _round_summary(v, seats):
    # At a round's first turn (the last round's scores, RULES §1.6), unless its cards
    # are being placed already.
    if v["phase"] == "over" or v["revealed"] or v["turn"] != 1:
        return None
    return rendering.round_summary(v, seats)


def _revealed(game_engine, v, seats):
    if not v["revealed"]:
        return None
    heads = game_engine.heads
    plays = [
        {
            "name": seats[seat].name,
            "card": {"number": card, "heads": heads(card)},
            "placed": card not in v["resolving"],
        }
        for seat, card in enumerate(v["revealed"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])


def _draft(game_engine, v, seats):
    draft = v.get("draft")
    if not draft or v["phase"] != "draft":
        return None
    return {
        "pool": card_faces(game_engine, draft["pool"]),
        "picks": [{"name": seats[seat].name, "card": card} for seat, card in draft["picks"]],
        "picker": seats[draft["to_pick"]].name,
    }


def seat_pile(v, position) -> dict:
    """A seat's line in the players' section: whether it has chosen this turn (never
    what), and its pile of the round (heads None while scores are hidden, RULES §1.5)."""
    return {"selected": v["selected"][position], "pile": v["piles"][position]}


def own_hand(game_engine, view) -> dict:
    """The seat's own cards, and the one it has chosen this turn (it may change it)."""
    return {
        "hand": card_faces(game_engine, view["hand"] or []),
        "can_select": view["phase"] == "select",
        "my_selection": view["my_selection"],
    }


def _chooser_or_picker(v):
    """The seat whose too-low card takes the row it chooses, or who picks in a draft."""
    if v["phase"] == "draft":
        return v["draft"]["to_pick"]
    if v["phase"] == "choose_row":
        return v["chooser"]
    return None


def _selected_card(view):
    return view["my_selection"]


def heads_amount(amount: float) -> str:
    """An amount of heads in words, one decimal: the review's unit (6 qui prend ! and 6 qui
    surprend)."""
    number = formats.number_format(amount, 1)
    # Decimals read as plural in English, singular below 2 in French.
    count = int(amount) if amount == int(amount) else (2 if amount > 1 else 0)
    return ngettext("%(n)s head", "%(n)s heads", count) % {"n": number}


def card_words(game_engine, card: int) -> str:
    """A numbered card and its heads: "44 (3 heads)"."""
    heads = game_engine.heads(card)
    # Translators: a card of 6 qui prend ! and its heads, e.g. "44 (3 heads)".
    return ngettext("%(card)s (%(n)s head)", "%(card)s (%(n)s heads)", heads) % {
        "card": card,
        "n": heads,
    }


def describe_decision(decision: dict) -> str:
    """A decision as the review names it: the card played, the row taken, the card picked."""
    if decision["type"] == "row":
        return gettext("take row %(n)s") % {"n": decision["row"] + 1}
    if decision["type"] == "pick":
        return gettext("pick %(card)s") % {"card": card_words(nimmt_engine, decision["card"])}
    return card_words(nimmt_engine, decision["card"])


def replay_steps(game) -> list[int]:
    """The replay's step of each decision of the log: the turn it played in, or the deal."""
    moments = [step["at"] for step in replay.nimmt_steps(nimmt_engine, rebuild(game))]
    return decision_steps(moments, game.decisions.count())


NIMMT = Kind(
    name=nimmt_engine.KIND,
    label=_("6 qui prend !"),
    engine=nimmt_engine,
    options_form=NimmtOptions,
    players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
    summary=_nimmt_summary,
    bots=NIMMT_BOTS,
    bot_choices=BOT_CHOICES,
    bot_notes=BOT_NOTES,
    replay_context=replay.nimmt_replay_context,
    league_totals=column_totals,
    event_options=lambda event: event.table_options(),
    paper_sheet=_nimmt_sheet,
    sheet_lines=lambda options: options.get("rounds") if options.get("end") == "rounds" else None,
    board_context=partial(rows_board, nimmt_engine),
    player_context=seat_pile,
    hand_context=partial(own_hand, nimmt_engine),
    actor=_chooser_or_picker,
    selection=_selected_card,
    turn_log=partial(turn_log, nimmt_engine),
    script="games/nimmt/reveal.js",
    describe_decision=describe_decision,
    describe_amount=heads_amount,
    replay_steps=replay_steps,
)
