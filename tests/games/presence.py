"""Seats in tests: making a player away the way the site does: her sockets have all been closed
for longer than the grace, and the presence sweep finds it (games.services.presence).
"Leave" (services.seat_remove) is another absence: the computer plays for her at once."""

from datetime import timedelta

from django.utils import timezone

from games import services
from games.models import Decision, Seat


def goes_away(table, user) -> None:
    long_ago = timezone.now() - services.unseen_for_away() - timedelta(seconds=1)
    Seat.objects.filter(table=table, user=user).update(seen_at=long_ago)
    services.presence_sweep()
    assert Seat.objects.get(table=table, user=user).away


def seat_of(table, position) -> Seat:
    return Seat.objects.get(table=table, position=position)


def sources(table, seat) -> list[str]:
    """Who made each decision of the seat, in order: the player, a bot, the clock, away."""
    return list(
        Decision.objects.filter(game__table=table, seat=seat)
        .order_by("seq")
        .values_list("source", flat=True)
    )
