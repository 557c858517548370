"""Paper and screen of a club night (leagues.club_views), included by leagues.urls."""

from django.urls import re_path

from leagues import club_views

EVENT = r"^(?P<slug>[-\w]+)/(?P<event>evenings|tournaments)/(?P<pk>\d+)/"

urlpatterns = [
    re_path(
        EVENT + r"rounds/(?P<number>\d+)/sheet/$",
        club_views.round_sheet,
        name="league_round_sheet",
    ),
    re_path(EVENT + r"results/$", club_views.results, name="league_event_results"),
    re_path(EVENT + r"tv/$", club_views.tv_view, name="league_event_tv"),
]
