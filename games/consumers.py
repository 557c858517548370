from channels.generic.websocket import AsyncJsonWebsocketConsumer

LOBBY_GROUP = "lobby"


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """Pushes the list of open tables to signed-in players as it changes."""

    async def connect(self):
        if not self.scope["user"].is_authenticated:
            await self.close(code=4401)
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
