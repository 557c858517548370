from django.urls import include, path

from leagues import ical, sheet_views, views

urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("invite/<str:code>/", views.invite, name="league_invite"),
    path("sheets/<int:pk>/", sheet_views.sheet, name="league_sheet"),
    path("sheets/<int:pk>/answer/", sheet_views.sheet_answer, name="league_sheet_answer"),
    path(
        "sheets/<int:pk>/confirm-all/",
        sheet_views.sheet_confirm_all,
        name="league_sheet_confirm_all",
    ),
    path("<slug:slug>/", views.league, name="league"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="league_standings_csv"),
    path("<slug:slug>/calendar.ics", ical.league_calendar, name="league_calendar"),
    path("<slug:slug>/join/", views.join, name="league_join"),
    path("<slug:slug>/sheets/new/", sheet_views.sheet_new, name="league_sheet_new"),
    path("<slug:slug>/leave/", views.leave, name="league_leave"),
    path("<slug:slug>/members/<int:pk>/approve/", views.approve, name="league_membership_approve"),
    path("<slug:slug>/tournaments/<int:pk>/", views.tournament, name="league_tournament"),
    path(
        "<slug:slug>/tournaments/<int:pk>/registration/",
        views.tournament_registration,
        name="league_tournament_registration",
    ),
    path("<slug:slug>/evenings/<int:pk>/", views.evening, name="league_evening"),
    # A club night's round sheets, results and TV (leagues/club_urls.py).
    path("", include("leagues.club_urls")),
]
