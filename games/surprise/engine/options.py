"""Table options of 6 qui surprend: `live_scores` only (RULES §2.5, "Set-up and piles")."""

from games.engine.errors import OptionsError

from .cards import MAX_PLAYERS, MIN_PLAYERS

DEFAULTS = {"live_scores": True}  # RULES 1.5
KNOWN = ("live_scores",)


def check_players(players):
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )


def normalize_options(options, players):
    """The complete options of a table of `players`: `{"live_scores": bool}`.

    RULES 2.5: of the §1 options only `live_scores` applies (always 2 rounds of 12 cards,
    no card limit, no draft, no end option); any other name is refused.
    """
    check_players(players)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise OptionsError(f"options must be a mapping, not {type(options).__name__}")
    for name in options:
        if name not in KNOWN:
            raise OptionsError(f"unknown option {name!r} (6 qui surprend knows only live_scores)")
    merged = {**DEFAULTS, **options}
    if type(merged["live_scores"]) is not bool:
        raise OptionsError(f"live_scores must be true or false, not {merged['live_scores']!r}")
    return {"live_scores": merged["live_scores"]}
