"""What every page's navigation bar shows of the player's games."""

from functools import cached_property

from games import selectors


class _MyGames:
    """The "My games" link's count, read (one query) only when a page draws it."""

    def __init__(self, user):
        self.user = user

    @cached_property
    def waiting(self) -> int:
        """How many tables wait for a decision of the player's."""
        if self.user is None or not self.user.is_authenticated:
            return 0
        return selectors.waiting_count(self.user)


def my_games(request) -> dict:
    return {"my_games": _MyGames(getattr(request, "user", None))}
