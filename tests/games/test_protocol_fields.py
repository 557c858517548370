"""A decision's fields are checked against what its game declares (docs/protocol.md):
numbers, short names, null and short lists, each only where the game allows it."""

import json

import pytest

from games import engine
from games.protocol import ProtocolError, parse_message

# Decisions of a made-up game, as an engine declares them in DECISIONS.
DECISIONS = {
    "select": {"card": int, "special": str | None},
    "play": {"card": str},
    "move": {"from": list, "to": list},
}


def parse(message, decisions=DECISIONS):
    return parse_message(json.dumps({"id": "r1", **message}), None, decisions)


def refused(message, decisions=DECISIONS) -> str:
    with pytest.raises(ProtocolError) as error:
        parse(message, decisions)
    return error.value.code


def test_each_field_is_read_as_its_game_declares_it():
    assert parse({"type": "select", "card": "44", "special": None}).decision == {
        "type": "select",
        "card": 44,
        "special": None,
    }
    assert parse({"type": "select", "card": 7, "special": "stop"}).decision["special"] == "stop"
    assert parse({"type": "play", "card": "6-oros"}).decision == {"type": "play", "card": "6-oros"}
    assert parse({"type": "move", "from": [1, 0], "to": ["2", 3]}).decision == {
        "type": "move",
        "from": [1, 0],
        "to": [2, 3],
    }


@pytest.mark.parametrize(
    "message",
    [
        {"type": "select", "card": "x", "special": None},  # a name where a number is due
        {"type": "select", "card": None, "special": None},  # null where it is not allowed
        {"type": "select", "card": 3, "special": 5},  # a number where a name is due
        {"type": "select", "card": 3},  # a field missing
        {"type": "play", "card": "<b>"},  # not a short name
        {"type": "play", "card": "a" * 33},
        {"type": "play", "card": [1]},
        {"type": "move", "from": list(range(33)), "to": []},  # too long
        {"type": "move", "from": [[[1]]], "to": []},  # too deep
        {"type": "move", "from": [True], "to": []},
        {"type": "move", "from": [None], "to": []},
        {"type": "dance"},
    ],
)
def test_anything_else_is_refused(message):
    assert refused(message) in ("bad_field", "unknown_type")


def test_a_game_knows_only_its_own_decisions():
    nimmt = engine.get("nimmt").DECISIONS
    assert parse({"type": "row", "row": "2"}, nimmt).decision == {"type": "row", "row": 2}
    assert refused({"type": "play", "card": "6-oros"}, nimmt) == "unknown_type"
    # The lobby takes no decision at all.
    assert refused({"type": "row", "row": 2}, None) == "unknown_type"
