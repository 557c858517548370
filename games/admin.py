"""Tables in the Django admin: see every table and its seats, free a stuck one.

Site admins (superusers) see every table; a league's admins see their leagues' tables
(the same scoping as the league admin pages). Games, their score sheets and picked-up
piles are in the league admin (leagues/admin.py).
"""

from django.contrib import admin

from games.models import Seat, Table
from leagues.admin import LeagueScopedAdmin


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot", "away")
    readonly_fields = ("position", "user", "bot")
    can_delete = False


@admin.register(Table)
class TableAdmin(LeagueScopedAdmin):
    league_path = "season__league"
    list_display = (
        "__str__",
        "kind",
        "status",
        "seats_count",
        "created_by",
        "season",
        "is_public",
        "created_at",
    )
    list_filter = ("status", "kind", "is_public", "season")
    search_fields = ("name", "created_by__username", "seats__user__username")
    date_hierarchy = "created_at"
    readonly_fields = (
        "kind",
        "created_by",
        "created_at",
        "seats_count",
        "options",
        "time_limit",
        "invite_code",
        "deal_seed",
        "status",
    )
    fields = (
        "name",
        "kind",
        "status",
        "created_by",
        "created_at",
        "seats_count",
        "options",
        "time_limit",
        "is_public",
        "show_played",
        "season",
        "invite_code",
        "deal_seed",
    )
    inlines = [SeatInline]
    list_select_related = ("created_by", "season__league")

    def has_add_permission(self, request):
        # Tables are opened from the lobby or by a seating (leagues), never empty-handed here.
        return False
