"""Reads and renders: what a player (or spectator) is shown of tables and games.

Only `engine.view(state, seat)` reaches a template: another seat's hand or unrevealed
choice is never in a context, so it cannot leak into HTML.

What is read here of a view is what every game has: its phase, who is to act, the
totals, the result, the version and the round (and the score sheet's round scores). A
game's board, its players' piles, its hand and its log are built by its Kind's hooks
(games.kinds.Kind: board_context, player_context, hand_context, actor, selection,
turn_log), which get the views and give the context of its own sections.
"""

from games.rendering.frames import Kept, find_sections, live_frame, selection_of, update_frame
from games.rendering.pages import page_live, page_log, past_rounds, render_lobby_tables
from games.rendering.snapshots import (
    Snapshot,
    read_snapshot,
    remember_snapshot,
    round_summary,
    snapshot_at,
)

__all__ = [
    "Kept",
    "Snapshot",
    "find_sections",
    "live_frame",
    "page_live",
    "page_log",
    "past_rounds",
    "read_snapshot",
    "remember_snapshot",
    "render_lobby_tables",
    "round_summary",
    "selection_of",
    "snapshot_at",
    "update_frame",
]
