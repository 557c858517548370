"""Tournament registration and check-in."""

from django.utils.translation import gettext as _

from leagues.models import (
    Membership,
    Registration,
)
from leagues.services.errors import LeagueError


def tournament_register(*, tournament, user) -> None:
    """A member registers for a tournament while its registration is open."""
    if not tournament.registration_open:
        raise LeagueError("closed", _("Registration for this tournament is closed."))
    if not Membership.objects.filter(
        league_id=tournament.season.league_id, user=user, status=Membership.Status.ACTIVE
    ).exists():
        raise LeagueError("not_member", _("Only members of the league can register."))
    Registration.objects.get_or_create(tournament=tournament, user=user)


def tournament_withdraw(*, tournament, user) -> None:
    """A player withdraws before being checked in."""
    if tournament.players.filter(pk=user.pk).exists():
        raise LeagueError("checked_in", _("You are checked in: ask the organiser."))
    Registration.objects.filter(tournament=tournament, user=user).delete()


def tournament_check_in(*, tournament, user_ids: list[int]) -> int:
    """The organiser checks in registered players who came: they are present, and the
    seating seats them. Returns how many were checked in."""
    registered = set(
        Registration.objects.filter(tournament=tournament, user_id__in=user_ids).values_list(
            "user_id", flat=True
        )
    )
    tournament.players.add(*registered)
    return len(registered)
