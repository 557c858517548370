"""Checking chat messages before any service sees them: games.protocol hands them to
chat.protocol, which the chat registers (games.sockets)."""

import json

import pytest

from games.protocol import ProtocolError, parse_message


def parse(**message):
    return parse_message(json.dumps({"type": "chat", **message}), None)


def test_a_line_of_text_is_a_chat_message():
    message = parse(text="  Bien joué !  ", id="c1")
    assert (message.type, message.text, message.canned, message.id) == (
        "chat",
        "Bien joué !",
        "",
        "c1",
    )


def test_a_canned_message_is_its_key():
    message = parse(canned="ouch")
    assert (message.text, message.canned) == ("", "ouch")


def test_two_hundred_characters_pass_and_more_do_not():
    assert parse(text="é" * 200).text == "é" * 200
    with pytest.raises(ProtocolError) as refused:
        parse(text="é" * 201)
    assert (refused.value.code, refused.value.about) == ("too_long", "chat")


@pytest.mark.parametrize(
    "message",
    [
        {},
        {"text": None},
        {"text": ""},
        {"text": "\t "},
        {"text": ["a"]},
        {"text": "bell\x07"},
        {"text": "NUL\x00"},
        {"text": "lone \ud800 surrogate"},
        {"text": "private \ue000 use"},
        {"canned": "not_a_key"},
        {"canned": 3},
        {"text": "ok", "id": "x" * 65},
        {"text": "ok", "id": 'quote"'},
    ],
)
def test_what_is_not_a_chat_message_is_refused_as_the_chats(message):
    with pytest.raises(ProtocolError) as refused:
        parse(**message)
    assert (refused.value.code, refused.value.about) == ("bad_field", "chat")


def test_other_refusals_are_not_the_chats():
    with pytest.raises(ProtocolError) as refused:
        parse_message(json.dumps({"type": "select"}), None)
    assert refused.value.about == ""
