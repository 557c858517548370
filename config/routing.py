from django.urls import path

from games import consumers
from leagues.consumers import TvConsumer

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    # The club room's TV of an evening or a tournament (<event>: evenings, tournaments).
    path("ws/leagues/<slug:slug>/<str:event>/<int:pk>/tv/", TvConsumer.as_asgi()),
]
