"""Tables are in the Django admin through leagues/admin/tables.py (TableAdmin): a league's admins
see their leagues' tables there, and games does not depend on leagues. Games, their score
sheets and picked-up piles are in the league admin too.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    """The post-game reviews, read only: computed by the task or `manage.py review_game`."""

    list_display = ["game", "seat", "user", "cost", "computed_at"]
    list_select_related = ["game__table", "user"]
    search_fields = ["user__username", "game__table__name"]
    readonly_fields = ["game", "seat", "user", "cost", "computed_at", "decision_count"]
    exclude = ["decisions"]

    @admin.display(description=_("decisions"))
    def decision_count(self, review):
        return len(review.decisions)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
