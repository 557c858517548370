"""Tables in the Django admin: see every table and its seats, free a stuck one.

Site admins (superusers) see every table; a league's admins see their leagues' tables
(the same scoping as the league admin pages). Games, their score sheets and picked-up
piles are in the league admin (leagues/admin.py).
"""

from django.contrib import admin

from games.models import Seat, Table
from leagues.admin import LeagueScopedAdmin, LeagueScopedFilter, deal_in_play


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
    list_filter = ("status", "kind", "is_public", ("season", LeagueScopedFilter))
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
    )
    inlines = [SeatInline]
    list_select_related = ("created_by", "season__league")

    def get_fields(self, request, obj=None):
        # The deal's seed rebuilds every hand: shown only once no game dealt from it can
        # still be played (this table's, or another table's of its duplicate round).
        if obj is not None and obj.deal_seed is not None and not deal_in_play(obj):
            return self.fields + ("deal_seed",)
        return self.fields

    def get_readonly_fields(self, request, obj=None):
        readonly = self.readonly_fields + ("deal_seed",)
        if obj is not None and obj.status == Table.Status.FINISHED:
            # Its result is in its season's standings: moving it would take it out of both
            # seasons' standings. Corrections have their own flow.
            readonly += ("season",)
        return readonly

    def has_delete_permission(self, request, obj=None):
        # A finished league table is a result of its season.
        if obj is not None and obj.status == Table.Status.FINISHED and obj.season_id:
            return False
        return super().has_delete_permission(request, obj)

    def has_add_permission(self, request):
        # Tables are opened from the lobby or by a seating (leagues), never empty-handed here.
        return False
