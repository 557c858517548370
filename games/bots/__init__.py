"""What every game's bots share: decision policies that see only their seat's `view`.

    bot = get_bot("expert", seed=7)
    decision = bot.decide(engine.view(state, seat))   # {"type": "select", "card": 44}, ...

Each game app holds its own bots (games/<game>/bots/) and registers them with its kind;
every bot is deterministic given its seed: the same seed and view give the same decision.
"""

from .base import Bot, NothingToDecide, legal_decisions


def get_bot(name: str, *, seed: int = 0) -> Bot:
    """A new bot named `name`, of whichever game registered it (games/kinds.py; a seat
    keeps only the name). Raises KeyError naming the known bots."""
    # Imported here: a game's kind registers its bots, and imports them first.
    from games import kinds

    return kinds.bot_class(name)(seed=seed)


__all__ = ["Bot", "NothingToDecide", "get_bot", "legal_decisions"]
