"""What the acknowledgement of a decision waits for before it leaves (issue 6, latency).

daphne sends through Twisted, which queues a frame and writes it when the event loop's
next poll finds the socket writable. `hub.after_writes` resumes only after that
poll's callbacks, so the renders of a table wait for the acknowledgement to be written
instead of delaying it (docs/performance.md §16). These tests hold the event loop the
server runs on to that order, with real sockets.
"""

import asyncio
import socket

from games.hub import after_writes


async def test_what_waits_for_the_writes_runs_after_the_sockets_next_callbacks():
    loop = asyncio.get_running_loop()
    order = []
    reading, writing = socket.socketpair()
    reading.setblocking(False)
    writing.setblocking(False)
    try:
        writing.send(b"a decision")  # readable at the next poll

        def on_readable():
            reading.recv(100)
            loop.remove_reader(reading)
            order.append("read")

        def on_writable():  # as Twisted does with a queued frame
            loop.remove_writer(writing)
            order.append("written")

        async def after():
            await after_writes()
            order.append("after the writes")

        task = asyncio.ensure_future(after())
        loop.add_reader(reading, on_readable)
        loop.add_writer(writing, on_writable)
        loop.call_soon(order.append, "ready before")
        await task
        assert order[0] == "ready before"
        assert sorted(order[1:3]) == ["read", "written"]
        assert order[3] == "after the writes"
    finally:
        reading.close()
        writing.close()


async def test_waits_for_the_writes_resume_in_the_order_they_began():
    order = []

    async def one(n):
        await after_writes()
        order.append(n)

    await asyncio.gather(*(one(n) for n in range(50)))
    assert order == list(range(50))


async def test_a_cancelled_wait_leaves_nothing_behind():
    task = asyncio.ensure_future(after_writes())
    task.cancel()
    await asyncio.sleep(0.01)  # the timer fires on a cancelled future: nothing happens
    assert task.cancelled()
