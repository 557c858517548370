"""The hub's own Redis client (games/resp.py): RESP2 parsed as it arrives, PUBLISH pipelined
on one connection, pushed messages, passwords, and servers that go quiet or talk nonsense.

Against real redis-servers of the tests' own (tests/games/redis_server.py), and, for the
misbehaving servers, plain TCP servers on loopback that say nothing or garbage.
"""

import asyncio
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import resp
from games.hub import Hub
from tests.games.redis_server import RedisServer, needs_redis_server

# What a server may send, and what each parses to.
REPLIES = [
    (b":3\r\n", 3),
    (b":-12\r\n", -12),
    (b"+OK\r\n", b"OK"),
    (b"$0\r\n\r\n", b""),
    (b"$-1\r\n", None),
    (b"*-1\r\n", None),
    (b"*0\r\n", []),
    # A bulk string is read by its length: line ends inside it are data.
    (b'$9\r\n{"a":\r\n1}\r\n', b'{"a":\r\n1}'),
    (
        b'*3\r\n$7\r\nmessage\r\n$7\r\nt:0:t:5\r\n$11\r\n{"v": 1234}\r\n',
        [b"message", b"t:0:t:5", b'{"v": 1234}'],
    ),
    (b"*2\r\n*1\r\n:1\r\n$1\r\nx\r\n", [[1], b"x"]),
]


def parse_all(data: bytes) -> list:
    values, at = [], 0
    while at < len(data):
        value, end = resp.parse(data, at)
        assert end > at, f"stuck at {at}"
        values.append(value)
        at = end
    return values


def test_every_kind_of_reply_parses_to_its_value():
    for data, value in REPLIES:
        assert parse_all(data) == [value]
    [error] = parse_all(b"-ERR unknown command 'NOPE'\r\n")
    assert isinstance(error, resp.RedisError) and "unknown command" in str(error)


def test_a_reply_cut_anywhere_is_not_taken_before_it_is_whole():
    for data, _value in REPLIES:
        for cut in range(len(data)):
            assert resp.parse(data[:cut], 0) == (None, 0), (data, cut)


@given(st.lists(st.sampled_from(range(len(REPLIES))), min_size=1, max_size=12), st.data())
def test_replies_arriving_in_any_pieces_are_read_whole_and_in_order(picks, data):
    stream = b"".join(REPLIES[i][0] for i in picks)
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(stream) - 1)), max_size=8)))

    async def receive():
        connection = resp.Connection()
        futures = [connection.loop.create_future() for _ in picks]
        connection.waiting.extend((future, 0.0) for future in futures)
        for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
            connection.data_received(stream[start:end])
        assert connection.buffer == b""
        return [future.result() for future in futures]

    assert asyncio.run(receive()) == [REPLIES[i][1] for i in picks]


def test_nonsense_is_a_protocol_error():
    with pytest.raises(resp.ProtocolError):
        resp.parse(b"?what\r\n", 0)
    with pytest.raises(resp.ProtocolError):
        resp.parse(b"$x\r\nab\r\n", 0)


def test_a_command_is_an_array_of_bulk_strings():
    assert resp.pack(b"PUBLISH", "t:0:table:7", '{"é": 1}') == (
        b'*3\r\n$7\r\nPUBLISH\r\n$11\r\nt:0:table:7\r\n$9\r\n{"\xc3\xa9": 1}\r\n'
    )


@needs_redis_server
async def test_publishes_pipelined_on_one_connection_are_answered_in_order(redis_server):
    heard = []
    listener = await resp.connect(redis_server.url(), heard.append)
    publisher = await resp.connect(redis_server.url())
    try:
        listener.send(b"SUBSCRIBE", b"one", b"two")
        while len(heard) < 2:
            await asyncio.sleep(0.01)
        assert heard == [[b"subscribe", b"one", 1], [b"subscribe", b"two", 2]]
        # Sent together, before any reply: each reply goes to its own request.
        replies = await asyncio.gather(
            *(publisher.request(b"PUBLISH", b"one" if i % 2 else b"nobody", b"m%d" % i)
              for i in range(500))
        )  # fmt: skip
        assert replies == [i % 2 for i in range(500)]  # receivers: 1 on "one", 0 on "nobody"
        while len(heard) < 2 + 250:
            await asyncio.sleep(0.01)
        assert heard[2:] == [[b"message", b"one", b"m%d" % i] for i in range(1, 500, 2)]
        with pytest.raises(resp.RedisError, match="wrong number of arguments"):
            await publisher.request(b"PUBLISH", b"one")
        assert await publisher.request(b"PUBLISH", b"two", b"still fine") == 1
    finally:
        listener.close()
        publisher.close()


@needs_redis_server
async def test_a_password_in_the_url_is_given_and_a_wrong_one_refused():
    server = RedisServer("--requirepass", "s3cret:/@")
    server.start()
    try:
        base = f"127.0.0.1:{server.port}/0"
        connection = await resp.connect(f"redis://:s3cret%3A%2F%40@{base}")
        assert await connection.request(b"PUBLISH", b"x", b"y") == 0
        connection.close()
        with pytest.raises(resp.RedisError):
            await resp.connect(f"redis://:wrong@{base}")
        anonymous = await resp.connect(f"redis://{base}")
        with pytest.raises(resp.RedisError, match="NOAUTH"):
            await anonymous.request(b"PUBLISH", b"x", b"y")
        anonymous.close()
    finally:
        server.kill()
        shutil.rmtree(server.folder, ignore_errors=True)


async def serve(reply: bytes):
    """A TCP server on loopback that answers the first thing it is sent with `reply`
    (maybe nothing) and then keeps quiet."""

    async def handle(reader, writer):
        try:
            await reader.read(65536)
            writer.write(reply)
            await reader.read()  # until the client goes
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0"


async def test_a_request_left_unanswered_fails_and_closes_its_connection(monkeypatch):
    monkeypatch.setattr(resp, "ANSWER_SECONDS", 0.3)
    server, url = await serve(b"")
    async with server:
        connection = await resp.connect(url)
        first = connection.request(b"PUBLISH", b"a", b"1")
        await asyncio.sleep(0.1)
        second = connection.request(b"PUBLISH", b"a", b"2")
        with pytest.raises(ConnectionError, match="did not answer"):
            await first
        with pytest.raises(ConnectionError):
            await second
        assert not connection.open
        with pytest.raises(ConnectionError):
            connection.request(b"PUBLISH", b"a", b"3")


async def test_a_silent_listener_is_asked_for_a_ping_and_given_up(monkeypatch):
    monkeypatch.setattr(resp, "ANSWER_SECONDS", 0.2)
    server, url = await serve(b"")
    async with server:
        connection = await resp.connect(url, on_push=lambda items: None)
        error = await asyncio.wait_for(connection.watch(idle=0.2), 5)
        assert "PING" in str(error)
        assert not connection.open


async def test_a_server_talking_nonsense_loses_the_connection():
    server, url = await serve(b"?garbage\r\n")
    async with server:
        connection = await resp.connect(url)
        pending = connection.request(b"PUBLISH", b"a", b"1")
        with pytest.raises(ConnectionError, match="protocol error"):
            await asyncio.wait_for(pending, 5)
        assert isinstance(await asyncio.wait_for(connection.lost, 5), ConnectionError)


@needs_redis_server
async def test_the_hub_ignores_what_is_not_an_announcement_and_hears_the_next(redis_server):
    class Screen:
        def __init__(self):
            self.versions = []

        async def table_changed(self, event):
            self.versions.append(event["version"])

    here, there = redis_server.hub(), redis_server.hub()
    screen = Screen()
    await here.join(1, screen)
    await there.join(1, Screen())
    publisher = await resp.connect(redis_server.url())
    try:
        name = here._name(1)
        for garbage in (b"not json", b"[1, 2]", b'"a string"', b"\xff\xfe"):
            assert await publisher.request(b"PUBLISH", name, garbage) == 2
        await there.announce(1, {"type": "table.changed", "version": 6})
        for _ in range(100):
            if screen.versions:
                break
            await asyncio.sleep(0.02)
        assert screen.versions == [6]
        assert here.subscriber.open
    finally:
        publisher.close()
        for hub in (here, there):
            hub.close()


async def test_a_hub_knows_its_own_announcements_by_their_end():
    # What the listening connection pushes, handed to the hub as it would be: its own
    # announcement is not delivered again, its own hello is heard (its subscription is
    # confirmed), and another process's announcement reaches its screens.
    class Screen:
        def __init__(self):
            self.events = []

        async def table_changed(self, event):
            self.events.append(event)

    hub = Hub(None, "redis://127.0.0.1:1/0", "hubtest")
    screen = Screen()
    hub.sockets[1] = {screen}
    origin = hub.origin.encode()
    mine = b'{"type": "table.changed", "version": 3, "table": 1, "origin": "%s"}' % origin
    hello = b'{"type": "hub.hello", "table": 1, "origin": "%s"}' % origin
    theirs = b'{"type": "table.changed", "version": 4, "table": 1, "origin": "0000"}'
    for data in (mine, hello, theirs):
        hub._pushed([b"message", b"c", data])
    await asyncio.gather(*hub.tasks)
    assert [event["version"] for event in screen.events] == [4]
    assert hub.greeted == {1}
    assert hub.others == {1: {"0000"}}
