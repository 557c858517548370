"""Who belongs to a league and who may sit at its tables: joining, approving, leaving, its
admins, its invitation link; the check games asks before seating a player
(leagues.receivers)."""

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from leagues import notify
from leagues.models import (
    Membership,
    new_invite_code,
    season_of,
    seated_table_of,
)
from leagues.services.errors import LeagueError


def check_can_sit(*, table, user) -> None:
    """A league table seats only active members of its league, while its season is open;
    a table seated for a club night, only the players seated there."""
    if table.reserved and user.pk not in _reserved_for(table):
        raise LeagueError(
            "reserved", _("This table's seats are kept for the players seated there.")
        )
    season = season_of(table)
    if season is None:
        return
    if season.closed:
        raise LeagueError("season_closed", _("This season is closed."))
    if not Membership.objects.filter(
        league_id=season.league_id, user=user, status=Membership.Status.ACTIVE
    ).exists():
        raise LeagueError("not_member", _("Only members of this league can sit at this table."))


def _reserved_for(table) -> list[int]:
    """Who may sit at a reserved table: the players its evening's or tournament's seating
    kept it for (nobody, for a table no seating made: a game entered on paper)."""
    slot = seated_table_of(table)
    return [] if slot is None else slot.reserved_for


def membership_request(*, league, user, invite_code: str = "") -> Membership:
    """Join a league: at once with its invitation link, otherwise when an admin approves."""
    with transaction.atomic():
        membership, _created = Membership.objects.select_for_update().get_or_create(
            league=league, user=user
        )
        invited = bool(invite_code) and secrets.compare_digest(invite_code, league.invite_code)
        if invited and membership.status != Membership.Status.ACTIVE:
            membership.status = Membership.Status.ACTIVE
            membership.save(update_fields=["status"])
        if _created and membership.status == Membership.Status.PENDING:
            transaction.on_commit(lambda: notify.join_request_waits(membership=membership))
    return membership


def membership_approve(*, memberships) -> int:
    """Let waiting players in; returns how many were approved."""
    return Membership.objects.filter(
        pk__in=[m.pk for m in memberships], status=Membership.Status.PENDING
    ).update(status=Membership.Status.ACTIVE)


def membership_leave(*, league, user) -> None:
    Membership.objects.filter(league=league, user=user).delete()


def league_admins_join(*, league_ids, user_ids) -> None:
    """A league's admins are active members of it from the moment they are named: they play
    in it and never have to ask to join their own league. (Called whenever admins are added,
    from the admin or anywhere else: leagues.receivers.)"""
    with transaction.atomic():
        for league_id in league_ids:
            for user_id in user_ids:
                membership, created = Membership.objects.select_for_update().get_or_create(
                    league_id=league_id,
                    user_id=user_id,
                    defaults={"status": Membership.Status.ACTIVE},
                )
                if not created and membership.status != Membership.Status.ACTIVE:
                    membership.status = Membership.Status.ACTIVE
                    membership.save(update_fields=["status"])


def league_new_invite_code(*, league) -> str:
    """A new invitation link for the league: the old one stops working at once."""
    league.invite_code = new_invite_code()
    league.save(update_fields=["invite_code"])
    return league.invite_code
