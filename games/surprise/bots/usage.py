"""How bots use 6 qui surprend's specials, watched during simulated games
(`manage.py simulate --game surprise`, games.bots.simulate): for each special, how often
each bot used it and the heads it saved on average.

"Saved" is measured so that it can be checked:
- Négatif = Positif: the heads of the cards it removed (the card and its extras), exact.
- A special attached to a card (Remplacer, 5e série, Insérer, Glisser, 7 qui surprend,
  Stop): the turn is played again from the reveal without that special (the same cards,
  the other seats' specials, the same bots answering the prompts), and saved = the heads
  its player took in that turn without it minus with it. A special that could not apply
  (went back to the hand) is not counted as used. Only the turn the special is played in
  is seen: what a Stop saves on later turns, its main use, is not measured.
The replayed turns ask the bots again, so a watched game is not the same game as an
unwatched one of the same seed.
"""

import statistics
from collections import defaultdict

from games.surprise import engine as surprise
from games.surprise.engine.cards import HEADS, KINDS, NEGATIF

EXCHANGE = "exchange"


def took_heads(events, seat) -> int:
    return sum(
        sum(HEADS[card] for card in event["cards"])
        for event in events
        if event["type"] == "took" and event["seat"] == seat
    )


def finish_turn(state, bots, events):
    """Play the turn being resolved to its end with the bots, adding its events."""
    while state.resolving:
        seat = surprise.to_act(state)[0]
        state, more = surprise.apply(state, seat, bots[seat].decide(surprise.view(state, seat)))
        events.extend(more)
    return state


def without_special(state, seat, decision, owner):
    """The turn's last selection again, with `owner`'s attached special taken off."""
    if owner == seat:
        return state, {**decision, "special": None}
    attached = list(state.attached)
    attached[owner] = None
    changed = state.copy()
    changed.attached = tuple(attached)
    return changed, decision


class SpecialUsage:
    """Watches one simulation: `after` is told of every decision applied."""

    def __init__(self, names: list[str]):
        self.names = names
        self.games = defaultdict(int)  # seat-games per bot
        self.used = defaultdict(lambda: defaultdict(int))
        self.saved = defaultdict(lambda: defaultdict(list))
        self._turn = None  # (state before the turn's last selection, seat, decision)
        self._events = []

    def game_over(self) -> None:
        for name in self.names:
            self.games[name] += 1

    def after(self, before, seat, decision, state, events, bots) -> None:
        if before.phase == "select" and surprise.to_act(before) == [seat]:
            self._turn, self._events = (before, seat, decision), []
        if self._turn is None:
            self._count_reactions(events)
            return
        self._events.extend(events)
        if not state.resolving:
            self._measure(bots)
            self._turn = None

    def _count_reactions(self, events) -> None:
        for event in events:
            name = self.names[event["seat"]] if "seat" in event else None
            if event["type"] == "removed":
                heads = HEADS[event["card"]] + sum(HEADS[card] for card in event["extras"])
                self.used[name][NEGATIF] += 1
                self.saved[name][NEGATIF].append(heads)
            elif event["type"] == "exchanged":
                self.used[name][EXCHANGE] += 1

    def _measure(self, bots) -> None:
        before, seat, decision = self._turn
        events = self._events
        self._count_reactions(events)
        revealed = next((e for e in events if e["type"] == "revealed"), None)
        if revealed is None:
            return
        returned = {(e["seat"], e["special"]) for e in events if e["type"] == "special_returned"}
        for owner, special in enumerate(revealed["specials"]):
            if special is None or (owner, special) in returned:
                continue
            changed, other = without_special(before, seat, decision, owner)
            state, replayed = surprise.apply(changed, seat, other)
            finish_turn(state, bots, replayed)
            name = self.names[owner]
            self.used[name][special] += 1
            saved = took_heads(replayed, owner) - took_heads(events, owner)
            self.saved[name][special].append(saved)

    def report(self) -> str:
        kinds = (*KINDS, EXCHANGE)
        lines = [
            "specials: uses per game per seat / mean heads saved per use",
            f"{'bot':<20}" + "".join(f"{kind:>17}" for kind in kinds),
        ]
        for name in dict.fromkeys(self.names):
            games = self.games[name] or 1
            cells = []
            for kind in kinds:
                uses = self.used[name][kind] / games
                saved = self.saved[name][kind]
                mean = f"{statistics.fmean(saved):+.2f}" if saved else "—"
                cells.append(f"{uses:.2f}" if kind == EXCHANGE else f"{uses:.2f} / {mean}")
            lines.append(f"{name:<20}" + "".join(f"{cell:>17}" for cell in cells))
        return "\n".join(lines)
