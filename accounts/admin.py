from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")
    fieldsets = UserAdmin.fieldsets + (
        (_("Club"), {"fields": ("display_name", "preferred_language")}),
    )

    def has_view_permission(self, request, obj=None):
        # League admins pick co-admins among their members through this admin's
        # autocomplete (leagues.admin), and see no player otherwise.
        from leagues.admin import picks_league_admins

        if obj is None and picks_league_admins(request):
            return True
        return super().has_view_permission(request, obj)

    def get_search_results(self, request, queryset, search_term):
        from leagues.admin import league_admin_candidates, picks_league_admins

        queryset, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if picks_league_admins(request):
            queryset = league_admin_candidates(request, queryset)
        return queryset, may_have_duplicates
