from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from accounts import views as account_views
from config import views
from games import views as game_views
from leagues import leaderboards
from leagues import profile as league_profile

# The admin's header and titles name the site, in the admin's language.
admin.site.site_header = _("sixclub administration")
admin.site.site_title = _("sixclub admin")
admin.site.index_title = _("Leagues, tables and players")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/", views.rules, name="rules"),
    path("language/", account_views.set_language, name="set_language"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/profile/", account_views.profile_edit, name="profile_edit"),
    # Before Django's own: the same URL and name, with limits on the mails it sends.
    path(
        "accounts/password_reset/",
        account_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("players/<str:username>/", league_profile.profile, name="profile"),
    path("leaderboards/", leaderboards.leaderboard, name="leaderboards"),
    path("leaderboards/<str:kind>/", leaderboards.leaderboard, name="leaderboard"),
    path("my-games/", game_views.my_games, name="my_games"),
    path("tables/", include("games.urls")),
    path("leagues/", include("leagues.urls")),
    path("chat/", include("chat.urls")),
    path("admin/", admin.site.urls),
]
