from django.urls import path

from chat import views

urlpatterns = [
    path("messages/<int:message_id>/mute/", views.mute, name="chat_mute"),
    path("messages/<int:message_id>/report/", views.report, name="chat_report"),
    path("players/<int:user_id>/unmute/", views.unmute, name="chat_unmute"),
    path("tables/<int:table_id>/spectators/", views.spectators, name="chat_spectators"),
]
