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
        else:
            took = (time.perf_counter() - _gc_started.get("t", time.perf_counter())) * 1000
            if took >= 5:
                print(f"gc gen{info['generation']} {took:.1f} ms", file=sys.stderr, flush=True)

    gc.callbacks.append(_gc_timer)
if os.environ.get("BENCH_GC_THRESHOLD"):
    import gc

    gc.set_threshold(*(int(n) for n in os.environ["BENCH_GC_THRESHOLD"].split(",")))
