"""Table options of Six (RULES §3.1, §3.3–3.5): defaults and validation."""

from games.engine.errors import OptionsError

MIN_PLAYERS = 2  # RULES 3.1
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 4  # RULES 3.1: for the table form; new_game always names its players
BALANCED_PLAYERS = 4  # RULES 3.4, 3.5
TARGET_RANGE = (5, 200)  # RULES 3.5
HANDS_RANGE = (1, 40)  # RULES §5: a duplicate round plays a fixed number of hands

DEFAULTS = {"deck": 40, "end": "target", "target": 30, "balanced": False}
KNOWN = ("deck", "end", "target", "hands", "balanced")


def check_players(players):
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )


def normalize_options(options, players):
    """The complete options of a table of `players`: `deck`, `end`, `balanced`, and
    exactly one of `target` (end = "target": RULES 3.5) or `hands` (end = "hands": the game
    ends after that many hands, as a duplicate round plays it, RULES §5). A value given
    for the other one is still checked, then dropped. `hands` has no default: a
    fixed-length game must say how long it is.

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
    end = merged["end"]
    if end not in ("target", "hands"):
        raise OptionsError(f"end must be 'target' or 'hands', not {end!r}")
    _check_range(merged, "target", TARGET_RANGE)
    if "hands" in merged:
        _check_range(merged, "hands", HANDS_RANGE)
    elif end == "hands":
        low, high = HANDS_RANGE
        raise OptionsError(f"hands is required when end is 'hands' (a number from {low} to {high})")
    balanced = merged["balanced"]
    if type(balanced) is not bool:
        raise OptionsError(f"balanced must be true or false, not {balanced!r}")
    if balanced and players != BALANCED_PLAYERS:
        raise OptionsError(
            f"balanced deals are for {BALANCED_PLAYERS} players only, not {players} (RULES 3.5)"
        )
    return {"deck": deck, "end": end, end: merged[end], "balanced": balanced}


def _check_range(options, name, bounds):
    low, high = bounds
    value = options[name]
    # JSON true/false are Python bools, which are ints; a target of `true` is no number.
    if type(value) is not int or not low <= value <= high:
        raise OptionsError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
