"""The server process's garbage collector: what it skips and how often it runs.

CPython's full collection walks every tracked object. Django, Channels, twisted and our
modules leave about 100,000 long-lived objects (functions, classes, module dicts) after
start-up, and a full collection of them alone takes some 50 ms on our 2-core machine;
under load, with sockets and caches, full collections took 120-200 ms every few seconds,
and every decision waiting meanwhile waited that long (docs/performance.md §12).

``settle()`` runs once the ASGI application is built: it collects what the imports left,
then freezes the survivors (``gc.freeze()``), which moves them out of the collector's
generations for good, and sets the thresholds from settings.GC_THRESHOLDS. With
CPython's own (700, 10, 10), objects that live a few hundred milliseconds (a table's
kept version, a socket's frames) reached the oldest generation and set off a full
collection every few seconds; with 10,000 allocations between young collections, a
minute at 200 decisions a second ran about 20 young and 2 middle collections, and one
full one.
"""

import gc

from django.conf import settings


def settle() -> None:
    if settings.GC_FREEZE:
        gc.collect()
        gc.freeze()
    gc.set_threshold(*settings.GC_THRESHOLDS)
