"""Table options of 6 qui prend ! (RULES §1.5–1.7): defaults and validation."""

from games.engine.errors import OptionsError

MIN_PLAYERS = 2  # RULES 1.2
MAX_PLAYERS = 10
THRESHOLD_RANGE = (1, 500)  # RULES 1.6
ROUNDS_RANGE = (1, 20)  # RULES 1.6; 1 is "Manche unique"

DEFAULTS = {
    "card_limit": False,  # RULES 1.7 tactical / pro card limit
    "deal": "random",  # or "draft", RULES 1.7
    "end": "threshold",  # or "rounds", RULES 1.6
    "threshold": 66,  # RULES 1.6, seed 000
    "live_scores": True,  # RULES 1.5
}
KNOWN = ("card_limit", "deal", "end", "threshold", "rounds", "live_scores")


def _is_int(value):
    # JSON true/false are Python bools, which are ints; a threshold of `true` is no number.
    return type(value) is int


def check_players(players):
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )


def normalize_options(options, players):
    """The complete options of a table of `players`, defaults filled in.

    The result always has `card_limit`, `deal`, `end`, `live_scores`, and exactly one of
    `threshold` (end = "threshold") or `rounds` (end = "rounds"). A value given for the
    other one is still checked, then dropped: it has no effect on the game. `rounds` has
    no default: a fixed-length game must say how long it is. Unknown names are refused so
    that a typo never silently plays a different game.
    """
    check_players(players)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionsError(f"options must be a mapping, not {type(options).__name__}")
    for name in options:
        if name not in KNOWN:
            raise OptionsError(f"unknown option {name!r} (known: {', '.join(KNOWN)})")
    merged = {**DEFAULTS, **options}
    for name in ("card_limit", "live_scores"):
        if type(merged[name]) is not bool:
            raise OptionsError(f"{name} must be true or false, not {merged[name]!r}")
    if merged["deal"] not in ("random", "draft"):
        raise OptionsError(f"deal must be 'random' or 'draft', not {merged['deal']!r}")
    if merged["end"] not in ("threshold", "rounds"):
        raise OptionsError(f"end must be 'threshold' or 'rounds', not {merged['end']!r}")
    _check_range(merged, "threshold", THRESHOLD_RANGE)
    if "rounds" in merged:
        _check_range(merged, "rounds", ROUNDS_RANGE)
    elif merged["end"] == "rounds":
        raise OptionsError("rounds is required when end is 'rounds' (a number from 1 to 20)")

    normal = {
        "card_limit": merged["card_limit"],
        "deal": merged["deal"],
        "end": merged["end"],
    }
    if merged["end"] == "threshold":
        normal["threshold"] = merged["threshold"]
    else:
        normal["rounds"] = merged["rounds"]
    normal["live_scores"] = merged["live_scores"]
    return normal


def _check_range(options, name, bounds):
    low, high = bounds
    value = options[name]
    if not _is_int(value) or not low <= value <= high:
        raise OptionsError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
