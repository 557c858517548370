"""The Django admin of leagues: a club admin runs a whole season from here.

Staff only (the admin site's own rule). Superusers see everything; a league's admins
(`League.admins`) see and manage only their leagues' objects, whatever Django model
permissions they hold: being a league's admin is the permission (base.py). Each module
registers its own models when this package is imported.
"""

from leagues.admin import events, games, leagues, ratings, sheets, tables
from leagues.admin.base import (
    LeagueScopedAdmin,
    LeagueScopedFilter,
    administers_a_league,
)

__all__ = [
    "LeagueScopedAdmin",
    "LeagueScopedFilter",
    "administers_a_league",
    "events",
    "games",
    "leagues",
    "ratings",
    "sheets",
    "tables",
]
