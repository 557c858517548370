"""The club room TV's socket: it listens and never acts.

It joins the groups of the current round's tables (`table.<id>`, where games.services says
"table N is at version v") and the event's own (leagues.tv: the seating or the TV table
changed), and answers each change with the TV's partials rendered afresh. Changes that come
together (a turn's reveal at one table, selections at another) are sent as one frame.
"""

import asyncio

from channels.db import database_sync_to_async

from games.consumers import NOT_FOUND, REFUSED, HtmlConsumer, user_group
from games.services import table_group
from leagues import tv

# How long a TV waits after a change for the next ones before it renders: a TV need not
# follow every selection at once, and one render then covers them all.
SETTLE_SECONDS = 0.4


class TvConsumer(HtmlConsumer):
    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.refuse(REFUSED)
            return
        kwargs = self.scope["url_route"]["kwargs"]
        event = await database_sync_to_async(tv.event_for)(
            kwargs["event"], kwargs["pk"], kwargs["slug"], user
        )
        if event is None:
            await self.refuse(NOT_FOUND)
            return
        self.event = event
        self.user = user
        self.language = await self._language()
        self.tables: set[int] = set()
        self.rendering: asyncio.Task | None = None
        self.changed = self.follow_due = False
        await self.channel_layer.group_add(tv.tv_group(event), self.channel_name)
        await self.channel_layer.group_add(user_group(user.pk), self.channel_name)
        await self.accept()
        await self._follow()
        await self.send(text_data=await self._render())

    async def disconnect(self, code):
        if not hasattr(self, "tables"):
            return
        if self.rendering is not None:
            self.rendering.cancel()
        groups = [table_group(pk) for pk in self.tables]
        await self._leave_groups(tv.tv_group(self.event), user_group(self.user.pk), *groups)

    async def receive(self, text_data=None, bytes_data=None):
        """A TV has no controls: whatever it is sent changes nothing."""

    async def table_changed(self, event):
        self._soon()

    async def tv_changed(self, event):
        self._soon(follow=True)

    def _soon(self, follow=False):
        self.changed = True
        self.follow_due = self.follow_due or follow
        if self.rendering is None or self.rendering.done():
            self.rendering = asyncio.ensure_future(self._render_soon())

    async def _render_soon(self):
        # A change heard while rendering renders again: the last frame is never older
        # than the last change.
        while self.changed:
            await asyncio.sleep(SETTLE_SECONDS)
            self.changed = False
            if self.follow_due:
                self.follow_due = False
                await self._follow()
            await self.send(text_data=await self._render())

    async def _follow(self):
        """Listen to the tables of the current round (a new round seats new ones)."""
        event = await database_sync_to_async(tv.reload_event)(self.event)
        if event is None:
            await self.close(code=NOT_FOUND)
            return
        self.event = event
        tables = await database_sync_to_async(tv.table_ids)(event)
        for pk in tables - self.tables:
            await self.channel_layer.group_add(table_group(pk), self.channel_name)
        left = self.tables - tables
        if left:
            await self._leave_groups(*(table_group(pk) for pk in left))
        self.tables = tables

    async def _render(self) -> str:
        return await database_sync_to_async(tv.render_parts)(self.event, self.language)
