"""What every game engine shares (its errors, the record reader) and the engines the site
plays, as pure Python: no Django, no I/O.

    from games import engine
    rules = engine.get(table.kind)

Each game app registers its engine (games.kinds.register); each engine module implements
the interface of docs/engines.md.
"""

from .errors import IllegalDecision, OptionsError, RecordError

# Engine modules by game kind, filled as games register.
ENGINES: dict = {}


def get(kind):
    """The engine module of a game kind, e.g. `get(table.kind)`. KeyError names the known ones."""
    try:
        return ENGINES[kind]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {kind!r} (known: {', '.join(sorted(ENGINES))})") from None


__all__ = ["ENGINES", "IllegalDecision", "OptionsError", "RecordError", "get"]
