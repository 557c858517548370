"""Live load: real players on real WebSockets against real daphne processes.

    .venv/bin/python bench/ws_load.py --tables 50 --players 5 --seconds 60 \
        [--servers 1|2] [--split seats|tables] [--url http://127.0.0.1:PORT ...] [--idle 1000]
        [--connect-burst 500] [--connect-concurrency 50] [--json out.json]

Without --url it starts its own servers (bench/_server.py): a fresh PostgreSQL database
`sixclub_load_<random>` on the server of DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/), Redis from REDIS_URL (default
redis://127.0.0.1:6379/0, with a key prefix of the run's own), and 1 or 2 daphne processes
with production settings (DEBUG=0). It stops them and drops the database at the end.
With --url it plays against servers already running on loopback; the accounts are then
created with `manage.py shell` on the DATABASE_URL of this environment, which must be
theirs.

What a run does:
1. creates tables×players accounts (plus a few spectators for --idle) in one
   `manage.py shell` script, then logs every one of them in over HTTP (login form, CSRF
   cookie and token, session cookie);
2. for each table, its first player creates it with the lobby form (20 rounds, no time
   limit), the others join it and the creator starts it, all over HTTP like the table page's
   htmx forms; with two servers the seats of a table alternate between them (from the
   first server at even tables, from the second at odd ones), or with `--split tables`
   all sit on one server (even tables on the first, odd ones on the second);
3. every player opens the table's WebSocket with its session cookie and the server's
   Origin and waits for its first `#live` frame; --idle K more sockets watch tables that
   never start (spectators that receive nothing after their first frame);
4. for --seconds, each player wakes once a second (each at its own random phase) and, if
   its latest `#live` frame asks something of it and no decision of its is awaiting an
   acknowledgement, decides: a row button if it has row buttons (a too-low card), else a
   random card of its hand if it has not chosen one this turn. Every decision carries an
   `id` and the `version` of the frame it was made on.

What it measures (docs/benchmarks.md, "Live load"):
- decisions/s: decisions acknowledged (`#ack` frames) during the window, per second;
- submit→ack: from just before a decision is written to the socket to the arrival of its
  `#ack` frame (the server has committed it); also p50/p99 for each 10 s of the window by
  sending time (a start-up transient or a passing stall shows in one slice);
- reveal: for every turn whose five (P) selections were all acknowledged, the last
  selection is the one the server committed last (highest acknowledged version V). For
  each seat of the table, the reveal latency is the time from the sending of that last
  selection to the arrival at that seat of its first `#live` frame with data-version >= V
  (the first frame showing the turn revealed). "after ack" subtracts the arrival of the
  last selection's own acknowledgement instead (it can be negative for a seat on the other
  server, whose frame may overtake the ack);
- errors, by the `data-code` of `#notice` frames, plus sockets closed by the server,
  decisions never acknowledged, and reveals never seen;
- CPU per decision: the CPU (user+system, from /proc/<pid>/stat) used over the window by
  each daphne process (÷ its share of the decisions acknowledged in it), all of them,
  PostgreSQL and Redis (all their processes on the machine), nginx with --nginx, and the
  load generator, each ÷ the decisions acknowledged; and beside them the machine's other
  load: the CPU of everything else on the machine (/proc/stat minus those processes) and
  the load average.
  No figure is printed if that cannot be read. Also each daphne's peak resident memory;
- with --connect-burst N, before the players connect (--connect-concurrency at a time):
  N sockets of the tables' players opened all at once, how many handshakes were accepted
  and how the others failed, the time from the start to each one's acceptance and to its
  first `#live` frame, and the CPU per socket, the machine's other load beside it.
Within a decision point the server sends a seat only its `#players` section, and its
`#hand` when its own selection changed (docs/protocol.md): the seat's screen is then at
that section's version, and its hand is replaced in the frame it decides from.
It only talks to 127.0.0.1, and every phase has a time limit.
"""

import argparse
import asyncio
import json
import math
import os
import random
import re
import resource
import secrets
import shutil
import sys
import time
from array import array
from bisect import bisect_left
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _http  # noqa: E402
import _server  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import (  # noqa: E402
    ConnectionClosed,
    InvalidHandshake,
    InvalidStatus,
)
from websockets.typing import Origin  # noqa: E402

PASSWORD = "load-players-password-7Qz"
ROUNDS = 20  # long games: at one turn a second a game lasts over three minutes
SOCKETS_PER_SPECTATOR = 50
SPECTATORS_PER_TABLE = 200
CONCURRENT_LOGINS = 8
CONCURRENT_CONNECTS = 50
SETUP_SECONDS = 900
DRAIN_SECONDS = 5
READ_SIZE = 1 << 16  # bytes asked of a socket at each read (Socket.open)

FIRST_TAG = re.compile(r'\s*<\w+ id="([\w-]+)"([^>]*)>')
HAND = re.compile(r'<section id="hand".*?</section>', flags=re.DOTALL)
DATA = re.compile(r'data-(\w+)="([^"]*)"')
HX_VALS = re.compile(r"hx-vals='(\{[^']*\})'")
PRESSED = 'aria-pressed="true"'


def choices_in(frame: str) -> tuple[list[int], list[int], bool]:
    """(cards I may select, rows I may take, whether I already chose) from a `#live` frame."""
    cards, rows = [], []
    for raw in HX_VALS.findall(frame):
        values = json.loads(raw)
        if values.get("type") == "select":
            cards.append(values["card"])
        elif values.get("type") == "row":
            rows.append(values["row"])
    return cards, rows, PRESSED in frame


def summary(frame: str) -> str:
    """What a player saw in a `#live` frame, for --trace: cards, rows, chosen or not."""
    cards, rows, chosen = choices_in(frame)
    return f"cards={len(cards)} rows={len(rows)} chosen={chosen}"


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def rank(q):  # nearest rank
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000

    return {
        "n": len(ordered),
        "p50": rank(0.50),
        "p95": rank(0.95),
        "p99": rank(0.99),
        "max": ordered[-1] * 1000,
    }


class Run:
    """What every socket of the run reports into."""

    def __init__(self):
        self.errors: Counter = Counter()
        self.ack_latency: list[float] = []
        self.ack_sent: list[float] = []  # when each of them was sent, from the window's start
        self.acked_in_window = 0
        self.ticks = Counter()
        self.start = 0.0
        self.end = 0.0
        self.trace: list | None = None  # every frame in and out, with --trace

    def in_window(self, moment: float) -> bool:
        return self.start <= moment <= self.end


class Table:
    def __init__(self, table_id: int, players: int):
        self.id = table_id
        self.size = players
        self.players: list[Player] = []
        # turns[k][i]: (sent, acked, version) of player i's k-th acknowledged selection
        self.turns: dict[int, dict[int, tuple[float, float, int]]] = {}
        self.last_ack = 0.0


class Socket:
    """One signed-in WebSocket to /ws/tables/<id>/ on one server."""

    def __init__(self, run: Run, browser: _http.Browser, table_id: int, name: str):
        self.run = run
        self.browser = browser
        self.table_id = table_id
        self.name = name
        self.ws = None
        self.first_frame = asyncio.Event()
        self.reader = None
        self.closing = False
        self.accepted_at = self.first_frame_at = None  # perf_counter moments (--connect-burst)

    async def open(self) -> None:
        url = self.browser.base.replace("http://", "ws://") + f"/ws/tables/{self.table_id}/"
        self.ws = await connect(
            url,
            origin=Origin(self.browser.origin),
            additional_headers={"Cookie": self.browser.cookie_header()},
            open_timeout=60,
            ping_interval=None,
            max_size=2**20,
            compression=None,
        )
        self.accepted_at = time.perf_counter()
        # asyncio reads a socket into a new 256 KiB buffer, which glibc maps and unmaps for
        # every read (mmap, mremap, munmap: a sixth of this process's CPU at 100 tables);
        # 64 KiB come from the heap. The servers' frames are a few KiB.
        self.ws.transport.max_size = READ_SIZE
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.first_frame.wait(), 60)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                moment = time.perf_counter()
                match = FIRST_TAG.match(text)
                if match is None:
                    self.run.errors["unparsed_frame"] += 1
                    continue
                kind, data = match.group(1), dict(DATA.findall(match.group(2)))
                if self.run.trace is not None:
                    self.run.trace.append((moment, self.name, "in", kind, data, summary(text)))
                self.on_frame(kind, data, text, moment)
        except ConnectionClosed as closed:
            if not self.closing:
                self.run.errors[f"closed_{closed.rcvd.code if closed.rcvd else 'abnormal'}"] += 1

    def on_frame(self, kind: str, data: dict, text: str, moment: float) -> None:
        if kind == "live":
            if self.first_frame_at is None:
                self.first_frame_at = moment
            self.first_frame.set()
        elif kind == "notice" and data.get("code"):
            self.run.errors[data["code"]] += 1

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


class Player(Socket):
    """A seated player who decides at most once a second."""

    def __init__(self, run, browser, table: Table, index: int):
        super().__init__(run, browser, table.id, f"t{table.id}p{index}")
        self.table = table
        self.index = index
        self.frame = ""
        self.version = -1
        self.phase = ""
        # First arrival of each new version: the seat's screen over time (for reveals).
        self.frame_times = array("d")
        self.frame_versions = array("q")
        self.waiting: tuple[str, str, float] | None = None
        self.act_from_version = -1
        self.sent = 0
        self.selections = 0

    def on_frame(self, kind, data, text, moment):
        if kind == "live":
            # A game at version 0 may show data-version="" (the template's |default).
            raw = data.get("version", "")
            version = int(raw) if raw.isdigit() else (0 if data.get("phase") else -1)
            self.frame, self.phase = text, data.get("phase", "")
            if version > self.version:
                self.frame_times.append(moment)
                self.frame_versions.append(version)
                self.version = version
            self.first_frame.set()
        elif kind == "players":
            # Within a decision point: the players' section, and this seat's hand when its
            # own selection changed (docs/protocol.md); the screen is then at that version.
            version = int(data.get("version") or 0)
            hand = HAND.search(text)
            if hand is not None:
                self.frame = HAND.sub(lambda _match: hand.group(0), self.frame, count=1)
            self.version = max(self.version, version)
        elif kind == "ack":
            waiting = self.waiting
            if waiting is None or waiting[0] != data.get("request"):
                self.run.errors["unexpected_ack"] += 1
                return
            request, decision, sent = waiting
            version = int(data["version"])
            self.waiting = None
            self.act_from_version = version
            self.table.last_ack = moment
            if self.run.in_window(sent):
                self.run.ack_latency.append(moment - sent)
                self.run.ack_sent.append(sent - self.run.start)
            if self.run.in_window(moment):
                self.run.acked_in_window += 1
            if decision == "select":
                self.table.turns.setdefault(self.selections, {})[self.index] = (
                    sent,
                    moment,
                    version,
                )
                self.selections += 1
        elif kind == "notice":
            code = data.get("code")
            if code:
                self.run.errors[code] += 1
            if self.waiting is not None and self.waiting[0] == data.get("request"):
                self.waiting = None

    async def play(self, loop_start: float, loop_end: float) -> None:
        loop = asyncio.get_running_loop()
        tick = loop_start + random.random()
        while tick < loop_end:
            await asyncio.sleep(max(0.0, tick - loop.time()))
            tick += 1.0
            if self.ws is None or self.reader.done():
                return
            await self.decide()

    async def decide(self) -> None:
        ticks = self.run.ticks
        if self.waiting is not None:
            ticks["awaiting_ack"] += 1
            return
        if self.version < self.act_from_version or self.phase == "over":
            ticks["nothing_to_do"] += 1
            return
        cards, rows, chosen = choices_in(self.frame)
        if rows:
            decision = {"type": "row", "row": random.choice(rows)}
        elif cards and not chosen:
            decision = {"type": "select", "card": random.choice(cards)}
        else:
            ticks["nothing_to_do"] += 1
            return
        ticks["decided"] += 1
        self.sent += 1
        request = f"{self.name}-{self.sent}"
        message = json.dumps({**decision, "id": request, "version": self.version})
        self.waiting = (request, decision["type"], time.perf_counter())
        if self.run.trace is not None:
            self.run.trace.append((self.waiting[2], self.name, "out", message, {}, ""))
        try:
            await self.ws.send(message)
        except ConnectionClosed:
            self.waiting = None


def reveal_latencies(tables: list[Table], run: Run) -> tuple[list, list, int]:
    """(from last selection sent, from its ack, seats that never saw it) for every turn."""
    from_sent, from_ack, unseen = [], [], 0
    for table in tables:
        for acks in table.turns.values():
            if len(acks) < table.size:
                continue
            sent, acked, version = max(acks.values(), key=lambda ack: ack[2])
            if not run.in_window(sent):
                continue
            for player in table.players:
                index = bisect_left(player.frame_versions, version)
                if index == len(player.frame_versions):
                    unseen += 1
                    continue
                seen = player.frame_times[index]
                from_sent.append(seen - sent)
                from_ack.append(seen - acked)
    return from_sent, from_ack, unseen


async def connect_burst(
    run, tables: list, count: int, meter_pids: list[int], nginx_pids: list[int]
) -> dict:
    """--connect-burst: `count` sockets opened all at once, socket j by seat j // tables of
    table j % tables (a club night starting, every browser reconnecting after a deploy).
    When each handshake was accepted and its first `#live` frame came, from the moment all
    began; the CPU used until the last one was in or had failed; then they are closed."""
    sockets = []
    for j in range(count):
        table = tables[j % len(tables)]
        player = table.players[(j // len(tables)) % table.size]
        sockets.append(Socket(run, player.browser, table.id, f"b{j}"))
    failures: Counter = Counter()

    async def one(socket: Socket) -> None:
        try:
            await socket.open()
        except ConnectionClosed as closed:
            failures[f"closed_{closed.rcvd.code if closed.rcvd else 'abnormal'}"] += 1
        except InvalidStatus as refused:
            failures[f"http_{refused.response.status_code}"] += 1
        except InvalidHandshake as failed:  # the server dropped it: no HTTP answer at all
            failures[type(failed).__name__] += 1
        except TimeoutError:
            failures["timeout" if socket.accepted_at is None else "no_first_frame"] += 1
        except OSError as error:
            failures[f"oserror_{error.errno}"] += 1

    meter = _server.ProcessMeter(meter_pids, nginx_pids)
    meter.start()
    start = time.perf_counter()
    await asyncio.gather(*(one(s) for s in sockets))
    usage = meter.stop()
    accepted = [s.accepted_at - start for s in sockets if s.accepted_at is not None]
    framed = [s.first_frame_at - start for s in sockets if s.first_frame_at is not None]
    await bounded(200, (s.close() for s in sockets))
    return {
        "sockets": count,
        "tables": len(tables),
        "accepted": len(accepted),
        "failed": dict(failures),
        "accept_ms": percentiles(accepted),
        "first_frame_ms": percentiles(framed),
        **usage,
    }


async def bounded(limit: int, coroutines) -> list:
    gate = asyncio.Semaphore(limit)

    async def one(coroutine):
        async with gate:
            return await coroutine

    return await asyncio.gather(*(one(c) for c in coroutines))


async def create_table(creator: _http.Browser, name: str, players: int) -> int:
    answer = await creator.post(
        "/tables/",
        {
            "name": name,
            "seats_count": players,
            "end": "rounds",
            "rounds": ROUNDS,
            "threshold": 66,
            "deal": "random",
            "live_scores": "on",
            "time_limit": 0,
            "is_public": "on",
            "csrfmiddlewaretoken": creator.cookies.get("csrftoken", ""),
        },
    )
    match = re.fullmatch(r"/tables/(\d+)/", answer.header("location"))
    if answer.status != 302 or match is None:
        raise _http.HttpError(f"table creation answered {answer.status}: {answer.text[:300]}")
    return int(match.group(1))


async def set_up_table(run, browsers: list[_http.Browser], number: int) -> Table:
    table_id = await create_table(browsers[0], f"load {number}", len(browsers))
    table = Table(table_id, len(browsers))
    for browser in browsers[1:]:
        code = await browser.htmx_post(f"/tables/{table_id}/join/")
        if code:
            raise _http.HttpError(f"join of table {table_id} refused: {code}")
    code = await browsers[0].htmx_post(f"/tables/{table_id}/start/")
    if code:
        raise _http.HttpError(f"start of table {table_id} refused: {code}")
    table.players = [Player(run, browser, table, i) for i, browser in enumerate(browsers)]
    return table


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        expected = loop.time() + 0.05
        await asyncio.sleep(0.05)
        samples.append(max(0.0, loop.time() - expected))


async def play(
    args, urls: list[str], meter_pids: list[int], prefix: str, nginx_pids: list[int] = ()
) -> dict:
    run = Run()
    if args.trace:
        run.trace = []
    servers = len(urls)
    seats = args.tables * args.players
    spectator_users = math.ceil(args.idle / SOCKETS_PER_SPECTATOR) if args.idle else 0
    browsers = []
    for i in range(seats + spectator_users):
        # Player i sits at seat i % players of table i // players: the seats of a table
        # alternate between servers, starting with the first server at even tables and the
        # second at odd ones (with an odd number of players, each server serves half).
        # With --split tables, every seat of a table is on one server (even tables on the
        # first, odd ones on the second), as a proxy routing /ws/tables/<id>/ by table would
        # place them (docs/deploy.md).
        if i >= seats:
            server = i % servers
        elif args.split == "tables":
            server = (i // args.players) % servers
        else:
            server = (i % args.players + i // args.players) % servers
        browsers.append(_http.Browser(urls[server]))

    clock = time.perf_counter()
    await bounded(
        CONCURRENT_LOGINS, (b.login(f"{prefix}{i}", PASSWORD) for i, b in enumerate(browsers))
    )
    print(f"  logged in {len(browsers)} users in {time.perf_counter() - clock:.1f} s")

    clock = time.perf_counter()
    tables = await bounded(
        8,
        (
            set_up_table(run, browsers[t * args.players : (t + 1) * args.players], t)
            for t in range(args.tables)
        ),
    )
    spectators = browsers[seats:]
    idle_sockets = []
    if args.idle:
        idle_tables = [
            await create_table(spectators[0], f"idle {n}", 10)
            for n in range(math.ceil(args.idle / SPECTATORS_PER_TABLE))
        ]
        for j in range(args.idle):
            watcher = spectators[j % len(spectators)]
            browser = _http.Browser(urls[j % servers], cookies=watcher.cookies)
            idle_sockets.append(Socket(run, browser, idle_tables[j % len(idle_tables)], f"i{j}"))
    print(f"  created and started {len(tables)} tables in {time.perf_counter() - clock:.1f} s")

    burst = None
    if args.connect_burst:
        burst = await connect_burst(run, tables, args.connect_burst, meter_pids, nginx_pids)
        await asyncio.sleep(1)  # let the closes settle

    clock = time.perf_counter()
    players = [player for table in tables for player in table.players]
    await bounded(args.connect_concurrency, (s.open() for s in players + idle_sockets))
    print(
        f"  opened {len(players)} player and {len(idle_sockets)} idle sockets"
        f" in {time.perf_counter() - clock:.1f} s"
    )

    meter = _server.ProcessMeter(meter_pids, nginx_pids)
    lag: list[float] = []
    stop_lag = asyncio.Event()
    lag_task = asyncio.create_task(loop_lag(lag, stop_lag))
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.5)  # let the connection frames settle before measuring
    meter.start()
    run.start = time.perf_counter()
    run.end = run.start + args.seconds
    loop_start = loop.time()
    playing = [asyncio.create_task(p.play(loop_start, loop_start + args.seconds)) for p in players]

    async def sample_memory():
        while True:
            await asyncio.sleep(1)
            meter.sample()

    sampler = asyncio.create_task(sample_memory())
    await asyncio.gather(asyncio.sleep(args.seconds), *playing)
    stop_lag.set()
    sampler.cancel()
    usage = meter.stop()
    await lag_task

    # Let the last decisions be acknowledged and their reveals arrive.
    deadline = time.perf_counter() + DRAIN_SECONDS
    while time.perf_counter() < deadline and (
        any(p.waiting for p in players) or reveal_latencies(tables, run)[2]
    ):
        await asyncio.sleep(0.2)
    unanswered = sum(1 for p in players if p.waiting and run.in_window(p.waiting[2]))
    if unanswered:
        run.errors["no_ack"] += unanswered
    reveal, reveal_after_ack, unseen = reveal_latencies(tables, run)
    # A table where nobody's decision was acknowledged in the last 5 s of the window has
    # stopped (a seat waiting for a frame that never came), unless its game is over.
    stalled = sum(
        1
        for table in tables
        if table.last_ack < run.end - 5 and not any(p.phase == "over" for p in table.players)
    )
    if stalled:
        run.errors["stalled_tables"] += stalled
    if unseen:
        run.errors["reveal_not_seen"] += unseen
    await bounded(200, (s.close() for s in players + idle_sockets))
    if args.trace:
        with args.trace.open("w") as trace:
            for moment, name, direction, kind, data, seen in run.trace:
                row = [round(moment - run.start, 4), name, direction, kind, data, seen]
                trace.write(json.dumps(row) + "\n")

    return {
        "command": " ".join(sys.argv),
        "tables": args.tables,
        "players": args.players,
        "servers": servers,
        "split": args.split if servers > 1 else None,
        "idle": args.idle,
        "seconds": args.seconds,
        "decisions": run.acked_in_window,
        "decisions_per_second": run.acked_in_window / args.seconds,
        "offered_per_second": seats,
        "ack_ms": percentiles(run.ack_latency),
        "ack_ms_by_slice": ack_slices(run, args.seconds),
        "reveal_ms": percentiles(reveal),
        "reveal_after_ack_ms": percentiles(reveal_after_ack),
        "errors": dict(run.errors),
        "ticks": dict(run.ticks),
        "client_loop_lag_ms": percentiles(lag),
        **usage,
        "connect_burst": burst,
    }


SLICE_SECONDS = 10


def ack_slices(run: Run, seconds: float) -> list[dict]:
    """submit->ack percentiles of each 10 s of the window (by sending time), to tell a
    start-up transient or a passing stall from the steady state."""
    slices = [[] for _ in range(max(1, math.ceil(seconds / SLICE_SECONDS)))]
    for sent, latency in zip(run.ack_sent, run.ack_latency, strict=True):
        slices[min(len(slices) - 1, int(sent // SLICE_SECONDS))].append(latency)
    return [percentiles(values) for values in slices]


def _line(label: str, figures: dict) -> str:
    if not figures.get("n"):
        return f"{label}: no samples"
    return (
        f"{label}: p50 {figures['p50']:.1f}  p95 {figures['p95']:.1f}  "
        f"p99 {figures['p99']:.1f}  max {figures['max']:.1f}  (n={figures['n']})"
    )


def _cpu_lines(result: dict) -> list[str]:
    per, servers = result["cpu_ms_per_decision"], result["servers"]
    if per is None:
        return ["CPU per decision: none acknowledged in the window; " + _other_load(result)]
    share = f", each process by {servers}" if servers > 1 else ""
    lines = [
        f"CPU per decision, ms (CPU of the {result['wall']:.0f} s window / the"
        f" {result['decisions']} decisions acknowledged in it{share}):"
    ]
    for index, (ms, loop_ms, rss) in enumerate(
        zip(per["daphne"], per["daphne_loop"], result["daphne_rss_mb"], strict=True)
    ):
        lines.append(
            f"  daphne[{index}] {ms:.2f} (event loop {loop_ms:.2f}, database threads"
            f" {ms - loop_ms:.2f}; {result['daphne_cpu'][index]:.2f} core, peak RSS {rss:.0f} MB)"
        )
    lines.append(
        f"  daphne all {per['daphne_all']:.2f}  postgres {per['postgres']:.2f}  redis"
        f" {per['redis']:.2f}"
        + ("" if per["nginx"] is None else f"  nginx {per['nginx']:.2f}")
        + f"  load generator {per['load_generator']:.2f}"
    )
    lines.append("  " + _other_load(result))
    return lines


def report(result: dict) -> str:
    servers = result["servers"]
    lines = [
        f"ws_load: {result['tables']} tables x {result['players']} players on {servers} daphne"
        f" process{'es' if servers > 1 else ''}"
        + (" (each table on one)" if result.get("split") == "tables" else "")
        + f", {result['idle']} idle sockets, {result['seconds']:g} s",
        f"decisions: {result['decisions']} acknowledged = {result['decisions_per_second']:.1f}/s"
        f" ({result['decisions_per_second'] / servers:.1f}/s per process;"
        f" offered at most {result['offered_per_second']}/s)",
        _line("submit->ack ms", result["ack_ms"]),
        f"submit->ack ms by {SLICE_SECONDS} s of the window, p50/p99: "
        + "  ".join(
            f"{figures['p50']:.1f}/{figures['p99']:.1f}" if figures.get("n") else "-"
            for figures in result.get("ack_ms_by_slice", [])
        ),
        _line("reveal ms (last selection sent -> each seat's frame)", result["reveal_ms"]),
        _line("reveal ms after the last ack", result["reveal_after_ack_ms"]),
        "errors: "
        + (", ".join(f"{k} {v}" for k, v in sorted(result["errors"].items())) or "none")
        + (
            f"; {result['server_errors_logged']} errors in the daphne logs"
            if result.get("server_errors_logged")
            else ""
        ),
        "ticks: " + ", ".join(f"{k} {v}" for k, v in sorted(result["ticks"].items())),
    ]
    if result.get("connect_burst"):
        lines[1:1] = burst_report(result["connect_burst"])
    lines.extend(_cpu_lines(result))
    lines.append(_line("load generator event-loop lag ms", result["client_loop_lag_ms"]))
    return "\n".join(lines)


def other_cpu(usage: dict) -> float:
    """The cores the rest of the machine kept busy over a meter's window: all its CPU
    (/proc/stat) but that of the processes measured. Without it and the load average no
    figure is printed: a CPU figure means nothing without the machine's other load."""
    machine, loadavg = usage.get("machine_cpu"), usage.get("loadavg_1min")
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in (machine, loadavg)):
        raise SystemExit("ws_load: the machine's other load could not be read: no figure")
    ours = sum(usage["daphne_cpu"]) + sum(
        usage.get(name, 0.0) for name in ("postgres_cpu", "redis_cpu", "nginx_cpu", "client_cpu")
    )
    return max(0.0, machine - ours)


def _other_load(usage: dict) -> str:
    return (
        f"machine's other load {other_cpu(usage):.2f} of {usage['cores']} cores"
        f" (all /proc/stat CPU but the above), load average {usage['loadavg_1min']:.2f}"
    )


def cpu_per(usage: dict, count: int, servers: int = 1) -> dict | None:
    """Milliseconds of CPU per decision (or socket) of each process measured over a
    meter's window: each daphne by its share (count / servers), all of them, PostgreSQL,
    Redis and the load generator by `count`; with the machine's other load. None when
    `count` is 0; SystemExit when the other load cannot be read."""
    other = other_cpu(usage)
    if not count:
        return None

    def ms(cores: float, share: float = 1.0) -> float:
        return cores * usage["wall"] * 1000 / (count * share)

    return {
        "daphne": [ms(cpu, 1 / servers) for cpu in usage["daphne_cpu"]],
        "daphne_loop": [ms(cpu, 1 / servers) for cpu in usage["daphne_loop_cpu"]],
        "daphne_all": ms(sum(usage["daphne_cpu"])),
        "postgres": ms(usage["postgres_cpu"]),
        "redis": ms(usage["redis_cpu"]),
        "nginx": ms(usage.get("nginx_cpu", 0.0)) if usage.get("nginx_measured") else None,
        "load_generator": ms(usage["client_cpu"]),
        "other_cores": other,
        "loadavg_1min": usage["loadavg_1min"],
    }


def burst_report(burst: dict) -> list[str]:
    per = burst["cpu_ms_per_socket"]
    failed = ", ".join(f"{k} {v}" for k, v in sorted(burst["failed"].items())) or "none"
    return [
        f"connect burst: {burst['sockets']} sockets at once (players of {burst['tables']}"
        f" tables): {burst['accepted']} accepted; failed: {failed}",
        _line("  open -> accepted ms", burst["accept_ms"]),
        _line("  open -> first #live frame ms", burst["first_frame_ms"]),
        f"  CPU per socket, ms (the {burst['wall']:.1f} s until the last was in):"
        f" daphne all {per['daphne_all']:.2f}  postgres {per['postgres']:.2f}  redis"
        f" {per['redis']:.2f}  load generator {per['load_generator']:.2f}",
        "  " + _other_load(burst),
    ]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--servers", type=int, default=1, choices=[1, 2])
    parser.add_argument(
        "--nginx", action="store_true", help="play through nginx in front (deploy/nginx)"
    )
    parser.add_argument(
        "--split",
        default="seats",
        choices=["seats", "tables"],
        help="with 2 servers: a table's seats alternate between them (seats, the default)"
        " or all sit on one (tables)",
    )
    parser.add_argument(
        "--url", action="append", default=[], help="an already running server (repeatable)"
    )
    parser.add_argument("--idle", type=int, default=0, help="extra idle spectator sockets")
    parser.add_argument(
        "--connect-concurrency",
        type=int,
        default=CONCURRENT_CONNECTS,
        help="sockets opening at a time when the players connect",
    )
    parser.add_argument(
        "--connect-burst",
        type=int,
        default=0,
        metavar="N",
        help="once the tables are started, first open N sockets of their players all at once"
        " and report how many handshakes were accepted and how fast",
    )
    parser.add_argument("--debug", action="store_true", help="serve with DEBUG=1")
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra environment for the servers started (repeatable)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--trace", type=Path, help="write every frame in and out to this file")
    parser.add_argument(
        "--keep-logs", action="store_true", help="keep the daphne logs of a successful run"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.tables <= 200:
        parser.error("--tables must be between 0 and 200")
    if not 2 <= args.players <= 10:
        parser.error("--players must be between 2 and 10")
    if not 1 <= args.seconds <= 600:
        parser.error("--seconds must be between 1 and 600")
    if not 0 <= args.idle <= 5000:
        parser.error("--idle must be between 0 and 5000")
    if not 1 <= args.connect_concurrency <= 5000:
        parser.error("--connect-concurrency must be between 1 and 5000")
    if not 0 <= args.connect_burst <= 5000:
        parser.error("--connect-burst must be between 0 and 5000")
    if args.connect_burst and args.tables == 0:
        parser.error("--connect-burst needs --tables: its sockets are their players'")
    if args.tables == 0 and args.idle == 0:
        parser.error("nothing to do: give --tables or --idle")
    for url in args.url:
        _server.require_loopback(url)
    return args


def _raise_open_files_limit(sockets: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 2 * sockets + 256))
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main(argv=None) -> int:
    args = parse_args(argv)
    _raise_open_files_limit(args.tables * args.players + args.idle + args.connect_burst)
    prefix = f"load{secrets.token_hex(3)}_"
    spectators = math.ceil(args.idle / SOCKETS_PER_SPECTATOR) if args.idle else 0
    users = args.tables * args.players + spectators
    stack = result = None
    try:
        if args.url:
            urls = [url.rstrip("/") for url in args.url]
            env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings")
            pids = []
            for url in urls:
                pid = _server.listening_pid(int(url.rsplit(":", 1)[1]))
                if pid is None:
                    raise SystemExit(f"no process of this machine listens for {url}")
                pids.append(pid)
        else:
            stack = _server.Stack(
                servers=args.servers,
                nginx=args.nginx,
                database_url=os.environ.get("DATABASE_URL")
                or "postgres://postgres@127.0.0.1:5432/",
                redis_url=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
                debug=args.debug,
                extra_env=dict(item.split("=", 1) for item in args.env),
            )
            clock = time.perf_counter()
            stack.start()
            urls, pids, env = stack.urls, stack.pids, stack.env()
            if args.nginx:  # every player through nginx, which places each table
                urls = [stack.nginx_url] * len(urls)
            print(
                f"  started {len(urls)} daphne on a fresh database"
                f" in {time.perf_counter() - clock:.1f} s"
            )
        clock = time.perf_counter()
        _server.create_users(env, prefix, users, PASSWORD)
        print(f"  created {users} accounts in {time.perf_counter() - clock:.1f} s")
        budget = SETUP_SECONDS + args.seconds + DRAIN_SECONDS + 60
        nginx_pids = stack.nginx_pids if stack is not None else []
        result = asyncio.run(asyncio.wait_for(play(args, urls, pids, prefix, nginx_pids), budget))
    finally:
        if stack is not None:
            stack.stop()
            logged = stack.errors_logged()
            if result is None or logged or args.keep_logs:
                print(f"  daphne logs kept in {stack.folder} ({logged} errors logged)")
            else:
                shutil.rmtree(stack.folder, ignore_errors=True)
    if stack is not None:
        result["server_errors_logged"] = logged
    # No figure without the machine's other load beside it (SystemExit when unreadable).
    result["cpu_ms_per_decision"] = cpu_per(result, result["decisions"], result["servers"])
    if result["connect_burst"]:
        burst = result["connect_burst"]
        burst["cpu_ms_per_socket"] = cpu_per(burst, burst["sockets"])
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
