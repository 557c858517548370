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
                    f"gc gen{info['generation']} {took:.1f} ms (thread CPU {cpu:.1f} ms,"
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
