"""A redis-server of a test's own, on a free loopback port: it can be stopped and started
again (or started with a password) without touching the Redis the rest of the suite uses."""

import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from games.hub import Hub, table_channel

needs_redis_server = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (apt-get install redis)"
)


class RedisServer:
    def __init__(self, *options):
        self.options = list(options)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.folder = tempfile.mkdtemp(prefix="sixclub-hub-redis-")
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", self.folder, *self.options],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self):
        self.process.kill()
        self.process.wait()

    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def hub(self):
        return Hub(None, self.url(), "hubtest")

    async def listeners(self, table_id):
        """How many processes listen to the table (Redis PUBSUB NUMSUB)."""
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.url())
        try:
            [(_name, count)] = await client.pubsub_numsub(
                table_channel(table_id, self.url(), "hubtest")
            )
            return count
        finally:
            await client.aclose()
