"""For measurements only: the project's settings plus switches to test proposals.

    .venv/bin/python bench/ws_load.py ... --env DJANGO_SETTINGS_MODULE=bench._pool_settings \
        [--env BENCH_SWITCH_INTERVAL=0.0005] [--env BENCH_CHANNEL_CAPACITY=1000] \
        [--env BENCH_REDIS_MAX_CONNECTIONS=1000]

It added psycopg's connection pool before config/settings.py had one (commit 5d7d0d6
adopted it, with the channel capacity, from docs/performance.md §1 and §4); the runs
recorded in docs/benchmarks.md with this module used the pool set here.
"""

import os
import sys

from config.settings import *  # noqa: F403
from config.settings import CHANNEL_LAYERS, DATABASES

# BENCH_SWITCH_INTERVAL=0.0005: how long a thread may keep the GIL while another waits
# (CPython's default is 0.005 s), to measure the convoy effect described in
# docs/performance.md.
if os.environ.get("BENCH_SWITCH_INTERVAL"):
    sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))

# BENCH_CHANNEL_CAPACITY=1000: messages a process's sockets may have waiting in Redis
# before channels-redis drops announcements to them (its default is 100).
if os.environ.get("BENCH_CHANNEL_CAPACITY") and "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["capacity"] = int(os.environ["BENCH_CHANNEL_CAPACITY"])

# BENCH_REDIS_MAX_CONNECTIONS=1000: redis-py 8 caps a pool at 100 connections and raises
# MaxConnectionsError beyond (redis-py 7 had no cap); sockets closing or opening together
# each hold one for their group_add/group_discard.
if os.environ.get("BENCH_REDIS_MAX_CONNECTIONS") and "CONFIG" in CHANNEL_LAYERS["default"]:
    for host in CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]:
        host["max_connections"] = int(os.environ["BENCH_REDIS_MAX_CONNECTIONS"])

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections instead
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 4, "max_size": 20}

# BENCH_GC_LOG=1: log every garbage collection of the server that takes 5 ms or more (to
# see whether collections pause the event loop); BENCH_GC_THRESHOLD=a,b,c sets
# gc.set_threshold(a, b, c).
if os.environ.get("BENCH_GC_LOG"):
    import gc
    import time

    _gc_started = {}

    def _gc_timer(phase, info):
        if phase == "start":
            _gc_started["t"] = time.perf_counter()
            _gc_started["cpu"] = time.thread_time()
        else:
            took = (time.perf_counter() - _gc_started.get("t", time.perf_counter())) * 1000
            cpu = (time.thread_time() - _gc_started.get("cpu", time.thread_time())) * 1000
            if took >= 5:
                print(
                    f"gc gen{info['generation']} {took:.1f} ms at {time.strftime('%H:%M:%S')}"
                    f" (thread CPU {cpu:.1f} ms,"
                    f" {info['collected']} collected, {len(gc.get_objects(2))} in gen2)",
                    file=sys.stderr,
                    flush=True,
                )
            if time.monotonic() - _gc_started.get("said", 0) > 10:
                _gc_started["said"] = time.monotonic()
                done = [generation["collections"] for generation in gc.get_stats()]
                print(f"gc collections so far by generation: {done}", file=sys.stderr)
            if info["generation"] == 2 and os.environ.get("BENCH_GC_CENSUS"):
                _gc_started["n"] = _gc_started.get("n", 0) + 1
                if _gc_started["n"] % 4 == 1:
                    _census()

    def _census():
        import collections

        objects = gc.get_objects()
        counts = collections.Counter(type(o).__qualname__ for o in objects)
        items = collections.Counter()
        for o in objects:
            if isinstance(o, (list, dict, tuple, set)):
                items[type(o).__qualname__] += len(o)
        print(f"gc census: {len(objects)} tracked objects; items {dict(items)}", file=sys.stderr)
        for name, count in counts.most_common(25):
            print(f"gc census:   {count:8d} {name}", file=sys.stderr)
        del objects

    gc.callbacks.append(_gc_timer)

# BENCH_GC_GARBAGE=1 (with BENCH_GC_LOG): what the collector would have freed since the
# start, by type, at every third full collection (gc.DEBUG_SAVEALL keeps it in gc.garbage
# for good: diagnosis only, the process grows).
if os.environ.get("BENCH_GC_LOG") and os.environ.get("BENCH_GC_GARBAGE"):
    import collections

    gc.set_debug(gc.DEBUG_SAVEALL)
    _garbage = {"full": 0}

    def _gc_garbage(phase, info):
        if phase != "stop" or info["generation"] != 2:
            return
        _garbage["full"] += 1
        if _garbage["full"] % 3 == 0:
            counts = collections.Counter(type(o).__qualname__ for o in gc.garbage)
            print(f"gc garbage: {len(gc.garbage)} objects", file=sys.stderr)
            for name, count in counts.most_common(40):
                print(f"gc garbage:   {count:8d} {name}", file=sys.stderr)

    gc.callbacks.append(_gc_garbage)
if os.environ.get("BENCH_GC_THRESHOLD"):
    import gc

    gc.set_threshold(*(int(n) for n in os.environ["BENCH_GC_THRESHOLD"].split(",")))

# BENCH_LOOP_LAG=20: a watchdog thread asks the server's event loop to run a callback every
# 10 ms; when one waits 20 ms or more it logs the wait, and where the event-loop thread
# (and every other thread) stood while it waited, to find what stalls the loop.
if os.environ.get("BENCH_LOOP_LAG"):
    import threading
    import time
    import traceback

    _lag_limit = float(os.environ["BENCH_LOOP_LAG"]) / 1000

    def _watch():
        main = threading.main_thread().ident
        while True:
            time.sleep(0.5)
            reactor = sys.modules.get("twisted.internet.reactor")
            loop = getattr(reactor, "_asyncioEventloop", None)
            if loop is not None and loop.is_running():
                break
        started = time.monotonic()
        while True:
            time.sleep(0.01)
            ran = threading.Event()
            asked = time.perf_counter()
            loop.call_soon_threadsafe(ran.set)
            if ran.wait(_lag_limit):
                continue
            stacks = sys._current_frames()
            where = ""
            if main in stacks:
                where = "".join(traceback.format_stack(stacks[main], limit=12))
            others = [
                "".join(traceback.format_stack(frame, limit=6))
                for ident, frame in stacks.items()
                if ident not in (main, threading.get_ident())
                and "_worker" not in traceback.format_stack(frame, limit=1)[0]
            ]
            ran.wait()
            lag = (time.perf_counter() - asked) * 1000
            print(
                f"loop lag {lag:.1f} ms at {time.strftime('%H:%M:%S')}"
                f" ({time.monotonic() - started:.2f} s); main thread:\n"
                f"{where}other busy threads: {len(others)}\n" + "\n".join(others[:3]),
                file=sys.stderr,
                flush=True,
            )

    threading.Thread(target=_watch, name="bench-loop-lag", daemon=True).start()

# BENCH_STAGES=1: time the stages of each decision in the server (socket message received
# -> decision starts -> decision ends -> acknowledgement built; in_server: received ->
# acknowledgement built) and log percentiles every 10 s, to see where the
# submit->ack latency goes.
if os.environ.get("BENCH_STAGES"):
    import threading
    import time

    def _stages():
        import json as _json

        while "games.consumers" not in sys.modules:
            time.sleep(0.2)
        time.sleep(1)
        consumers = sys.modules["games.consumers"]
        stamps = {}
        samples = {"wait": [], "run": [], "back": [], "in_server": []}
        original_decide, original_receive = consumers._decide, consumers.TableConsumer.receive
        original_ack = consumers._ack_frame

        async def _decide(table_id, user, message):
            started = time.perf_counter()
            try:
                return await original_decide(table_id, user, message)
            finally:
                stamps.setdefault(message.id, {}).update(start=started, end=time.perf_counter())

        async def receive(self, text_data=None, bytes_data=None):
            try:
                key = _json.loads(text_data).get("id")
            except Exception:
                key = None
            if key:
                stamps.setdefault(key, {})["received"] = time.perf_counter()
            return await original_receive(self, text_data, bytes_data)

        def ack(request_id, version):
            seen = stamps.pop(request_id, None)
            now = time.perf_counter()
            if seen and "received" in seen:
                samples["in_server"].append(now - seen["received"])
            if seen and {"received", "start", "end"} <= seen.keys():
                samples["wait"].append(seen["start"] - seen["received"])
                samples["run"].append(seen["end"] - seen["start"])
                samples["back"].append(now - seen["end"])
            return original_ack(request_id, version)

        consumers._decide, consumers.TableConsumer.receive = _decide, receive
        consumers._ack_frame = ack
        while True:
            time.sleep(10)
            parts = []
            for name, values in samples.items():
                values = sorted(values)
                samples[name] = []
                if values:

                    def pick(q, values=values):
                        return values[min(len(values) - 1, int(q * len(values)))] * 1000

                    parts.append(
                        f"{name} p50 {pick(0.5):.1f} p95 {pick(0.95):.1f} p99 {pick(0.99):.1f}"
                        f" max {values[-1] * 1000:.1f} (n={len(values)})"
                    )
            print("stages ms: " + "; ".join(parts), file=sys.stderr, flush=True)

    threading.Thread(target=_stages, name="bench-stages", daemon=True).start()

# BENCH_FAST_LOGIN=1: the accounts of the run hashed with a cheap hasher, for the login
# phase only (500 logins at Django's 1,000,000 PBKDF2 iterations take 85-270 s of the two
# cores before anything is measured). Nothing measured checks a password.
if os.environ.get("BENCH_FAST_LOGIN"):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# BENCH_CALLBACKS=1: time every callback the server's event loop runs and log, every 10 s,
# the percentiles of their durations, how much of the loop's time went to callbacks of
# 2 ms or more, and which callbacks those were (to see whether long single callbacks
# hold up the sockets that wait behind them).
if os.environ.get("BENCH_CALLBACKS"):
    import asyncio.events
    import collections
    import threading
    import time

    _durations: list[float] = []
    _long = collections.Counter()
    _long_time = collections.Counter()
    _original_handle_run = asyncio.events.Handle._run

    def _name(handle):
        callback = handle._callback
        task = getattr(callback, "__self__", None)
        if isinstance(task, asyncio.Task):
            coroutine = task.get_coro()
            frame = getattr(coroutine, "cr_frame", None)
            where = ""
            if frame is not None:
                where = f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}"
            return f"task {getattr(coroutine, '__qualname__', coroutine)} {where}"
        return getattr(callback, "__qualname__", repr(callback))[:80]

    def _timed_run(self):
        started = time.perf_counter()
        name = None
        if isinstance(getattr(self._callback, "__self__", None), asyncio.Task):
            name = _name(self)  # before it runs: where the task will resume
        try:
            return _original_handle_run(self)
        finally:
            took = time.perf_counter() - started
            _durations.append(took)
            if took >= 0.002:
                key = name or _name(self)
                _long[key] += 1
                _long_time[key] += took

    asyncio.events.Handle._run = _timed_run

    def _callbacks():
        while True:
            time.sleep(10)
            values = sorted(_durations)
            _durations.clear()
            if not values:
                continue
            total = sum(values)
            longer = sum(v for v in values if v >= 0.002)

            def pick(q, values=values):
                return values[min(len(values) - 1, int(q * len(values)))] * 1000

            lines = [
                f"callbacks: n={len(values)} p50 {pick(0.5):.2f} p99 {pick(0.99):.2f}"
                f" p99.9 {pick(0.999):.2f} max {values[-1] * 1000:.1f} ms; {total:.2f} s in all,"
                f" {longer:.2f} s in callbacks of 2 ms or more"
            ]
            for key, count in _long_time.most_common(8):
                lines.append(f"  {_long[key]:5d} x {count * 1000 / _long[key]:.1f} ms  {key}")
            _long.clear()
            _long_time.clear()
            print("\n".join(lines), file=sys.stderr, flush=True)

    threading.Thread(target=_callbacks, name="bench-callbacks", daemon=True).start()
