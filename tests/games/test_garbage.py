"""What a decision leaves for the garbage collector (docs/performance.md §12).

A process keeps one snapshot per table (the game, its table, its seats, the engine state
and the rendered sections) and replaces it at every version. If the kept objects formed a
reference cycle (the ORM links a game to its table and the table back to its game), each
replaced snapshot would wait, with its game's whole JSON state, for a full collection:
under load those took 100-200 ms of the event loop every few seconds. Without cycles,
reference counting frees each one at once.
"""

import collections
import contextlib
import gc

import pytest
from django.db.models import Model
from django.db.models.base import ModelState

from games import engine, rendering, services

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")
# What a process keeps of a table's version.
KEPT = (Model, ModelState, rendering.Snapshot, nimmt.State)


@contextlib.contextmanager
def garbage_found():
    """Collect what exists so far, then keep what the collector finds unreachable from now
    on in the list yielded."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_decisions_and_their_frames_leave_no_cycles(three, settings):
    # Called from this test's thread, each announcement runs on an event loop of its own
    # (async_to_sync), and channels-redis opens a connection for each such loop; the server
    # announces on its one event loop. The in-memory layer opens none.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    table, users = three
    rendering.read_snapshot(table.pk)
    # A section is looked up once per process, at its first render; a section not found
    # is an exception whose traceback holds that first render's context in a cycle.
    rendering.find_sections(table.kind)

    with garbage_found() as garbage:
        decisions = play_out(table, users)
        kinds = collections.Counter(getattr(t, "__qualname__", type(t).__name__) for t in garbage)
        ours = [thing for thing in garbage if isinstance(thing, KEPT)]
        lists = sum(isinstance(thing, list) for thing in garbage)
    assert decisions == 25
    assert not ours, kinds
    # A game's JSON state is mostly lists; none of them may be left to the collector.
    # (Django's SQL compiler leaves a small closure cycle per select_related query.)
    assert lists < decisions, kinds


def play_out(table, users, decisions_wanted=25) -> int:
    """Play the game the way sockets do, decide then render every screen, short of its end
    (which announces to the lobby too: that opens a channel-layer connection once)."""
    decisions = 0
    while decisions < decisions_wanted:
        state = rendering.read_snapshot(table.pk).state
        assert not nimmt.is_over(state)
        seat = nimmt.to_act(state)[0]
        decision = nimmt.fallback(state, seat)  # selections, row choices: both paths
        accepted = services.game_decide(table_id=table.pk, user=users[seat], decision=decision)
        snapshot = rendering.read_snapshot(table.pk)
        assert rendering.snapshot_at(table.pk, accepted.version) is snapshot
        for position in (0, 1, 2, None):
            rendering.update_frame(snapshot, position, "fr", True)
        decisions += 1
    del state, snapshot
    gc.collect()
    return decisions
