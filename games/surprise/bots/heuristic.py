"""`surprise_heuristic`: a sensible 6 qui prend ! player that uses its specials where
they obviously save heads (RULES §2).

- Selection: every card is given the heads it risks this turn, as the 6 qui prend !
  heuristic estimates them (`games.nimmt.bots.heuristic.chance_at_least`: a card is taken with
  its row only if enough opponents drop unseen cards into the gap below it first), on a
  table with Stops, caps, empty rows and a 5th row. A card with 7 qui surprend (bound
  for a row of 5 it would take), 5e série or Insérer (a card that would take) costs
  nothing now; Glisser costs what the card costs after the best move. Each special
  spent costs a premium (what holding it is worth), less as the game's end nears.
  The cheapest card and special win. Remplacer is attached to a card that risks a
  lot (after the reveal the bot picks its card knowing everyone's), Stop when a row
  threatens the cards kept in hand.
- Prompts: Remplacer, Insérer and Glisser play the rest of the turn out with the
  revealed cards (`table.Table`) and take the cheapest; a too-low card takes the row
  of fewest heads; Stop goes on the row most dangerous to the hand; Négatif = Positif
  removes the costliest card just taken and the greedy extras when that saves at least
  NEGATIF_AT heads (or the game is nearly over); no exchange.
"""

from bisect import bisect_left

from games.bots.base import Bot
from games.nimmt.bots.heuristic import (
    ESCAPE_PREMIUM,
    FIFTH_CARD_PENALTY,
    GAP_PENALTY,
    chance_at_least,
)
from games.surprise.engine.cards import (
    CINQUIEME,
    GLISSER,
    HAND_SIZE,
    HEADS,
    INSERER,
    REMPLACER,
    SEPT,
    STOP,
)
from games.surprise.engine.rules import greedy_extras

from .legal import attachable, awaited
from .table import ROW_LIMIT, Table, glisser_moves, heads_of, stop_choice

# What holding a special is worth, in heads, early in the game.
PREMIUM = {SEPT: 1.5, CINQUIEME: 1.5, INSERER: 1.5, GLISSER: 1.5, REMPLACER: 1.5, STOP: 1.0}
REMPLACER_AT = 2.5  # heads a card must risk for Remplacer to be attached to it
STOP_AT = 2.0  # danger of a row to the hand (see table.stop_choice) worth a Stop
NEGATIF_AT = 4  # heads Négatif = Positif must remove to be played before the end
NEGATIF_LATE = 3  # cards left in round 2's hands from which any saving will do


def turns_left(view: dict) -> int:
    """Turns of the game still to play, this one included."""
    left = len(view.get("hand") or ())
    if view["round"] == 1:
        left += HAND_SIZE
    return left


def premium(view: dict, special) -> float:
    if special is None:
        return 0.0
    return PREMIUM.get(special, 1.0) * min(1.0, turns_left(view) / 8)


def unseen_cards(view: dict) -> list[int]:
    """Number cards this seat has not seen this round (other hands and the unused deck)."""
    known = set(view.get("seen") or ())
    known.update(view.get("hand") or ())
    for row in view["rows"]:
        known.update(row)
    known.update(view.get("box") or ())
    return [card for card in range(1, 105) if card not in known]


def risk_cost(table: Table, card: int, unseen: list[int], opponents: int) -> float:
    """Expected heads of playing `card` plainly now (the nimmt heuristic's estimate)."""
    target = table.target(card)
    if target < 0:
        row = table.cheapest()
        return heads_of(table.rows[row]) + ESCAPE_PREMIUM
    row = table.rows[target]
    own = HEADS[card] if len(table.rows) > 4 else 0  # a 5-row take takes the card too
    if table.caps[target]:
        return heads_of(row) + own
    last = row[-1] if row else 0
    need = ROW_LIMIT - len(row)
    gap = bisect_left(unseen, card) - bisect_left(unseen, last)
    p = gap / len(unseen) if unseen else 0.0
    risk = chance_at_least(need, opponents, p)
    cost = risk * (heads_of(row) + own + 1.2 * need)
    if need == 1:
        cost += (1 - risk) * FIFTH_CARD_PENALTY * heads_of(row)
    return cost + GAP_PENALTY * (card - last)


def special_cost(table: Table, card: int, special, plain: float) -> float | None:
    """Heads `card` risks now with `special` attached; None when it would change nothing."""
    target = table.target(card)
    certain = target < 0 or table.caps[target] or len(table.rows[target]) >= ROW_LIMIT
    if special == SEPT:
        if target >= 0 and not table.caps[target] and len(table.rows[target]) >= ROW_LIMIT - 1:
            return 0.0
        return None
    if special == CINQUIEME:
        return 0.0 if len(table.rows) == 4 and plain > 1.0 else None
    if special == INSERER:
        short = [i for i in table.open_rows() if len(table.rows[i]) < ROW_LIMIT]
        return 0.0 if short and plain > 1.0 else None
    if special == GLISSER and certain:
        trial = table.copy()
        return float(trial.place(card, GLISSER))
    return None


def selection_options(view: dict) -> list[tuple[float, int, object]]:
    """(cost, card, special) for every card, plainly and with each special that helps."""
    table = Table.of_view(view)
    unseen = unseen_cards(view)
    opponents = view["players"] - 1
    specials = [s for s in attachable(view) if s not in (None, REMPLACER, STOP)]
    options = []
    for card in sorted(view["hand"]):
        plain = risk_cost(table, card, unseen, opponents)
        options.append((plain, card, None))
        for special in specials:
            cost = special_cost(table, card, special, plain)
            if cost is not None:
                options.append((cost + premium(view, special), card, special))
    return options


def turn_plays(view: dict, me: int, card: int, special=None):
    """The cards of this turn still to resolve, as (card, seat, special), with `me`
    playing `card` with `special`."""
    cards = view["cards"]
    specials = view["revealed_specials"] or [None] * len(cards)
    pending = set(view["resolving"] or ())
    plays = []
    for seat, played in enumerate(cards):
        if seat == me:
            plays.append((card, me, special))
        elif played in pending:
            other = specials[seat]
            plays.append((played, seat, None if other == REMPLACER else other))
    return plays


def rest_of_turn(table: Table, plays, me: int) -> tuple[int, int]:
    """Resolve `plays` on `table`; (heads `me` takes, heads the others take)."""
    taken = table.play(plays)
    mine = taken.pop(me, 0)
    return mine, sum(taken.values())


class SurpriseHeuristicBot(Bot):
    name = "surprise_heuristic"

    def decide(self, view: dict) -> dict:
        kind = awaited(view)
        return getattr(self, "on_" + kind)(view)

    # --- selection -------------------------------------------------------------------------

    def on_select(self, view: dict) -> dict:
        options = selection_options(view)
        cost, card, special = min(options, key=lambda option: option[:2])
        if special is None:
            special = self.extra_special(view, card, cost)
        return {"type": "select", "card": card, "special": special}

    def extra_special(self, view: dict, card: int, cost: float):
        """Remplacer for a card that risks a lot; Stop when a row threatens the hand."""
        held = view["specials"] or ()
        hand = [other for other in view["hand"] if other != card]
        if REMPLACER in held and hand and cost >= REMPLACER_AT + premium(view, REMPLACER):
            return REMPLACER
        table = Table.of_view(view)
        if STOP in held and hand and sum(table.stops) < 2:
            row = stop_choice(table, hand)
            target_rows = [table.target(other) for other in hand]
            danger = sum(
                heads_of(table.rows[row]) * (len(table.rows[row]) + 1) / (ROW_LIMIT + 1)
                for target in target_rows
                if target == row
            )
            if danger >= STOP_AT + premium(view, STOP):
                return STOP
        return None

    # --- prompts ---------------------------------------------------------------------------

    def on_remplacer(self, view: dict) -> dict:
        me = view["seat"]
        table = Table.of_view(view)
        best, best_key = None, None
        for card in (None, *sorted(view["hand"])):
            played = view["cards"][me] if card is None else card
            mine, others = rest_of_turn(table.copy(), turn_plays(view, me, played), me)
            key = (mine, card is not None, -others)
            if best_key is None or key < best_key:
                best, best_key = card, key
        return {"type": "remplacer", "card": best}

    def on_row(self, view: dict) -> dict:
        return {"type": "row", "row": Table.of_view(view).cheapest()}

    def on_inserer(self, view: dict) -> dict:
        me = view["seat"]
        card = view["cards"][me]
        table = Table.of_view(view)
        best, best_key = None, None
        for row in table.open_rows():
            for position in range(max(len(table.rows[row]), 1)):
                trial = table.copy()
                mine = trial.insert(card, row, position)
                plays = [play for play in turn_plays(view, me, card) if play[1] != me]
                more, others = rest_of_turn(trial, plays, me)
                key = (mine + more, -others, -len(table.rows[row]))
                if best_key is None or key < best_key:
                    best, best_key = (row, position), key
        return {"type": "inserer", "row": best[0], "position": best[1]}

    def on_glisser(self, view: dict) -> dict:
        me = view["seat"]
        card = view["cards"][me]
        table = Table.of_view(view)
        best, best_key = None, None
        for move in glisser_moves(table):
            trial = table.copy()
            mine, done = trial.slide(move, card)
            plays = [play for play in turn_plays(view, me, card) if not done or play[1] != me]
            more, others = rest_of_turn(trial, plays, me)
            key = (mine + more, -others)
            if best_key is None or key < best_key:
                best, best_key = move, key
        source, index, target, position = best
        return {"type": "glisser", "from": [source, index], "to": [target, position]}

    def on_stop(self, view: dict) -> dict:
        return {"type": "stop", "row": stop_choice(Table.of_view(view), view["hand"])}

    def on_negatif_positif(self, view: dict) -> dict:
        taken = view["prompt"]["taken"]
        if taken:
            card = max(taken, key=lambda c: (HEADS[c], c))
            extras = greedy_extras(view["my_pile"], card)
            saving = HEADS[card] + sum(HEADS[extra] for extra in extras)
            late = view["round"] == 2 and len(view["hand"]) <= NEGATIF_LATE
            if saving >= NEGATIF_AT or late:
                return {"type": "negatif_positif", "card": card, "extras": extras}
        return {"type": "negatif_positif", "card": None, "extras": None}

    def on_exchange(self, view: dict) -> dict:
        return {"type": "exchange", "special": None}
