"""What every bot shares: reading whose decision the view awaits, and the legal choices."""

import hashlib


class NothingToDecide(ValueError):
    """The view does not await a decision from its seat."""


def awaited(view: dict) -> str:
    """The kind of decision the view awaits from its seat: "select", "row" or "pick"."""
    seat = view.get("seat")
    if seat is None:
        raise NothingToDecide("a spectator's view awaits no decision")
    phase = view["phase"]
    if phase == "select" and seat in view.get("to_act", ()) and view.get("hand"):
        return "select"
    if phase == "choose_row" and view.get("chooser") == seat:
        return "row"
    if phase == "draft" and (view.get("draft") or {}).get("to_pick") == seat:
        return "pick"
    raise NothingToDecide(f"seat {seat} has nothing to decide in phase {phase!r}")


def legal_decisions(view: dict) -> list[dict]:
    """Every decision the seat may make, worked out from its view alone."""
    kind = awaited(view)
    if kind == "select":
        return [{"type": "select", "card": card} for card in sorted(view["hand"])]
    if kind == "row":
        return [{"type": "row", "row": index} for index in range(len(view["rows"]))]
    return [{"type": "pick", "card": card} for card in sorted(view["draft"]["pool"])]


def decision_seed(seed: int, view: dict) -> int:
    """A seed drawn from the bot's own seed and the moment of the game the view shows.

    A bot's decision is then a pure function of (seed, view): the same view always gets
    the same answer, whatever the bot decided before.
    """
    moment = (
        view.get("seat"),
        view.get("version"),
        view.get("round"),
        view.get("turn"),
        view.get("phase"),
        tuple(view.get("hand") or ()),
    )
    digest = hashlib.blake2b(repr((seed, moment)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Bot:
    """A decision policy for one seat. Subclasses implement the three kinds of decision."""

    name = "bot"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def decide(self, view: dict) -> dict:
        kind = awaited(view)
        if kind == "select":
            return {"type": "select", "card": self.select(view)}
        if kind == "row":
            return {"type": "row", "row": self.choose_row(view)}
        return {"type": "pick", "card": self.pick(view)}

    def select(self, view: dict) -> int:
        raise NotImplementedError

    def choose_row(self, view: dict) -> int:
        raise NotImplementedError

    def pick(self, view: dict) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"
