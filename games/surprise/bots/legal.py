"""What a seat of 6 qui surprend may decide, worked out from its own view alone.

The view (docs/engines.md, "6 qui surprend decisions, events and view") shows the rows
with their Stops and caps, the own hand, specials and penalty pile, and the prompt
awaited. The engine's helpers for the rows Insérer and Glisser may use read only
`rows`, `stops` and `caps`, so they are given a small stand-in built from the view.
"""

from types import SimpleNamespace

from games.bots.base import NothingToDecide
from games.surprise.engine.cards import HEADS, NEGATIF
from games.surprise.engine.rules import glisser_moves, greedy_extras, insert_positions, open_rows

PROMPTS = ("remplacer", "row", "inserer", "glisser", "stop", "negatif_positif", "exchange")


def awaited(view: dict) -> str:
    """ "select", or the kind of prompt awaited from the view's seat."""
    seat = view.get("seat")
    if seat is None:
        raise NothingToDecide("a spectator's view awaits no decision")
    if view["phase"] == "select" and seat in view.get("to_act", ()) and view.get("hand"):
        return "select"
    prompt = view.get("prompt")
    if prompt is not None and prompt["seat"] == seat and prompt["kind"] in PROMPTS:
        return prompt["kind"]
    raise NothingToDecide(f"seat {seat} has nothing to decide in phase {view['phase']!r}")


def table_of(view: dict) -> SimpleNamespace:
    """The rows, Stops and caps of the view, as the engine's row helpers read them."""
    return SimpleNamespace(
        rows=[tuple(row) for row in view["rows"]], stops=view["stops"], caps=view["caps"]
    )


def attachable(view: dict) -> list:
    """The specials a selection may carry: None, or any of the hand but Négatif = Positif."""
    return [None, *sorted(set(view["specials"] or ()) - {NEGATIF})]


def extras_fit(pile, card, extras) -> bool:
    """Négatif = Positif's extras: distinct cards of the pile, not `card`, within its heads."""
    return (
        card not in extras
        and len(set(extras)) == len(extras)
        and all(extra in pile for extra in extras)
        and sum(HEADS[extra] for extra in extras) <= HEADS[card]
    )


def legal_decisions(view: dict) -> list[dict]:
    """Every decision the engine's `legal` lists for this seat now, in the same order."""
    kind = awaited(view)
    if kind == "select":
        return [
            {"type": "select", "card": card, "special": special}
            for card in sorted(view["hand"])
            for special in attachable(view)
        ]
    table = table_of(view)
    if kind == "remplacer":
        return [{"type": "remplacer", "card": card} for card in (None, *sorted(view["hand"]))]
    if kind in ("row", "stop"):
        return [
            {"type": kind, "row": row} for row, stopped in enumerate(view["stops"]) if not stopped
        ]
    if kind == "inserer":
        return [
            {"type": "inserer", "row": row, "position": position}
            for row in open_rows(table)
            for position in insert_positions(table.rows[row])
        ]
    if kind == "glisser":
        return [
            {"type": "glisser", "from": [source, index], "to": [target, position]}
            for source, index, target, position in glisser_moves(table)
        ]
    if kind == "negatif_positif":
        pile = view["my_pile"]
        decisions = [{"type": "negatif_positif", "card": None, "extras": None}]
        for card in view["prompt"]["taken"]:
            decisions.append({"type": "negatif_positif", "card": card, "extras": []})
            extras = greedy_extras(pile, card)
            if extras:
                decisions.append({"type": "negatif_positif", "card": card, "extras": extras})
        return decisions
    return [
        {"type": "exchange", "special": special}
        for special in (None, *sorted(set(view["specials"] or ())))
    ]
