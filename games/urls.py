from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("options/", views.lobby_options, name="lobby_options"),
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/join/", views.join, name="table_join"),
    path("<int:table_id>/leave/", views.leave, name="table_leave"),
    path("<int:table_id>/back/", views.back, name="table_back"),
    path("<int:table_id>/bots/", views.add_bot, name="table_add_bot"),
    path(
        "<int:table_id>/seats/<int:position>/remove/", views.remove_seat, name="table_remove_seat"
    ),
    path(
        "<int:table_id>/seats/<int:position>/bot/",
        views.replace_by_bot,
        name="table_replace_by_bot",
    ),
    path(
        "<int:table_id>/seats/<int:position>/vote/",
        views.vote_replace,
        name="table_vote_replace",
    ),
    path("<int:table_id>/start/", views.start, name="table_start"),
    path("<int:table_id>/rematch/", views.rematch, name="table_rematch"),
    path("<int:table_id>/rematch/accept/", views.rematch_accept, name="table_rematch_accept"),
    path("<int:table_id>/record.json", views.record, name="table_record"),
    path("<int:table_id>/replay/", views.replay, name="table_replay"),
    path("<int:table_id>/log/", views.table_log, name="table_log"),
]
