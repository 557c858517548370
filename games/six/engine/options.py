"""Table options of Six (RULES §3.1, §3.3–3.5): defaults and validation."""

from games.engine.errors import OptionsError

MIN_PLAYERS = 2  # RULES 3.1
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 4  # RULES 3.1: for the table form; new_game always names its players
BALANCED_PLAYERS = 4  # RULES 3.4, 3.5
TARGET_RANGE = (5, 200)  # RULES 3.5

DEFAULTS = {"deck": 40, "target": 30, "balanced": False}
KNOWN = tuple(DEFAULTS)


def check_players(players):
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )


def normalize_options(options, players):
    """The complete options of a table of `players`: `deck`, `target` and `balanced`.

    Unknown names are refused, so that a typo never silently plays a different game.
    """
    check_players(players)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionsError(f"options must be a mapping, not {type(options).__name__}")
    for option in options:
        if option not in KNOWN:
            raise OptionsError(f"unknown option {option!r} (known: {', '.join(KNOWN)})")
    merged = {**DEFAULTS, **options}
    deck = merged["deck"]
    if type(deck) is not int or deck not in (40, 48):
        raise OptionsError(f"deck must be 40 or 48 (cards), not {deck!r}")
    low, high = TARGET_RANGE
    target = merged["target"]
    # JSON true/false are Python bools, which are ints; a target of `true` is no number.
    if type(target) is not int or not low <= target <= high:
        raise OptionsError(f"target must be a whole number from {low} to {high}, not {target!r}")
    balanced = merged["balanced"]
    if type(balanced) is not bool:
        raise OptionsError(f"balanced must be true or false, not {balanced!r}")
    if balanced and players != BALANCED_PLAYERS:
        raise OptionsError(
            f"balanced deals are for {BALANCED_PLAYERS} players only, not {players} (RULES 3.5)"
        )
    return {"deck": deck, "target": target, "balanced": balanced}
