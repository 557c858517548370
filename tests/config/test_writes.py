"""config/writes.py: Twisted's TCP connections send at once what they are given when
nothing waits before it, and queue the rest in order, as Twisted does.

Each test runs a real Twisted server on the asyncio reactor (tests/config/twisted_writer.py)
in its own process, with and without `writes.install()`, and talks to it over loopback.
"""

import json
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVER = Path(__file__).with_name("twisted_writer.py")


class Server:
    def __init__(self, eager: bool):
        args = [sys.executable, str(SERVER)] + (["--eager"] if eager else [])
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        self.port = int(self.process.stdout.readline())

    def connect(self, scenario: str) -> socket.socket:
        client = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        client.sendall(scenario.encode() + b"\n")
        return client

    def report(self) -> dict:
        return json.loads(self.process.stdout.readline())

    def stop(self):
        self.process.kill()
        self.process.wait()


@pytest.fixture(params=[True, False], ids=["eager", "twisted"])
def server(request):
    started = Server(eager=request.param)
    started.eager = request.param
    yield started
    started.stop()


def read_all(client: socket.socket) -> bytes:
    chunks = []
    while chunk := client.recv(1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_small_write_leaves_at_once_only_when_installed(server):
    client = server.connect("small")
    assert client.recv(16) == b"hello"
    client.close()
    report = server.report()
    if server.eager:
        assert report["waiting"] == 0 and report["writer"] is False
    else:  # Twisted's own path: queued until the reactor finds the socket writable
        assert report["waiting"] == 5 and report["writer"] is True


def test_what_the_kernel_does_not_take_follows_in_order(server):
    client = server.connect("burst")
    time.sleep(0.3)  # the server's writes find the socket's buffers full
    received = read_all(client)
    client.close()
    report = server.report()
    burst = bytes(range(256)) * (4 * 1024 * 1024 // 256)
    assert len(received) == len(burst) + 3
    assert received == burst + b"END"
    # 4 MiB do not fit the kernel's buffers: part of them, and all of b"END", waited.
    assert report["waiting"] > 3
    assert report["lost"] == "ConnectionDone"


def test_writing_to_a_reset_connection_loses_it_cleanly(server):
    client = server.connect("gone")
    client.recv(1000)  # the first write arrived
    # Closed with a reset (SO_LINGER 0): the server's next sends fail.
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()
    report = server.report()
    assert report["lost"] == "ConnectionLost"
    assert 1 <= report["writes"] < 200
    assert server.process.poll() is None  # still serving
    again = server.connect("small")
    assert again.recv(16) == b"hello"
    again.close()
    assert server.report()["scenario"] == "small"


def test_a_twisted_that_is_not_as_expected_keeps_its_own_write(caplog):
    from twisted.internet import tcp

    from config import writes

    installed = writes.uninstall()  # this process may have installed it already
    original = tcp.Connection.write

    def other_write(self, data):  # a later Twisted's write, say
        return original(self, data)

    tcp.Connection.write = other_write
    try:
        assert writes.install() is False
        assert tcp.Connection.write is other_write
        assert "left as is" in caplog.text
    finally:
        tcp.Connection.write = original
        if installed:
            writes.install()
