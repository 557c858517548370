"""The rules of every game the site hosts, as pure Python: no Django, no I/O.

    from games import engine
    nimmt = engine.get("nimmt")

Each engine module implements the interface of docs/engines.md.
"""

from . import nimmt, six, surprise
from .errors import IllegalDecision, OptionsError, RecordError

ENGINES = {nimmt.KIND: nimmt, six.KIND: six, surprise.KIND: surprise}


def get(kind):
    """The engine module of a game kind, e.g. `get("nimmt")`. KeyError names the known ones."""
    try:
        return ENGINES[kind]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {kind!r} (known: {', '.join(sorted(ENGINES))})") from None


__all__ = ["ENGINES", "IllegalDecision", "OptionsError", "RecordError", "get"]
