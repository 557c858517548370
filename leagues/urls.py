from django.urls import path

from leagues import views

urlpatterns = [
    path("", views.league_list, name="league_list"),
]
