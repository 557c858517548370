"""A Twisted TCP server on the asyncio reactor, run as its own process by test_writes.py.

    python tests/config/twisted_writer.py [--eager]

It prints its port, then one JSON line for each connection once that connection is lost:
what the scenario named by the client's first line saw. The scenarios:
- `small`: write 5 bytes and tell whether any of them waited in Twisted's buffer or for
  the reactor (the socket registered as a writer);
- `burst`: 4 MiB and then b"END" in two writes, to a client that reads them late;
- `gone`: keep writing to a client that has reset the connection.
"""

import json
import sys

from twisted.internet import asyncioreactor

asyncioreactor.install()

from twisted.internet import protocol, reactor  # noqa: E402

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])
if "--eager" in sys.argv:
    from config import writes  # noqa: E402

    if not writes.install():
        sys.exit("config/writes.py refused this Twisted")

BURST = bytes(range(256)) * (4 * 1024 * 1024 // 256)


class Scenario(protocol.Protocol):
    def connectionMade(self):
        self.report = {"scenario": None}
        self.received = b""

    def dataReceived(self, data):
        self.received += data
        if b"\n" not in self.received or self.report["scenario"]:
            return
        name = self.received.split(b"\n", 1)[0].decode()
        self.report["scenario"] = name
        transport = self.transport
        if name == "small":
            transport.write(b"hello")
            self.report["waiting"] = len(transport.dataBuffer) + transport._tempDataLen
            self.report["writer"] = transport in reactor.getWriters()
        elif name == "burst":
            transport.write(BURST)
            transport.write(b"END")
            self.report["waiting"] = len(transport.dataBuffer) + transport._tempDataLen
            transport.loseConnection()
        elif name == "gone":
            self.report["writes"] = 0
            self.keep_writing()

    def keep_writing(self):
        if not self.transport.connected or self.report["writes"] >= 200:
            return
        self.transport.write(b"x" * 1000)
        self.report["writes"] += 1
        reactor.callLater(0.005, self.keep_writing)

    def connectionLost(self, reason):
        self.report["lost"] = reason.type.__name__
        print(json.dumps(self.report), flush=True)


factory = protocol.Factory.forProtocol(Scenario)
port = reactor.listenTCP(0, factory, interface="127.0.0.1")
print(port.getHost().port, flush=True)
reactor.run()
