"""How fast the Django admin's pages of leagues and games answer on a big league, and in how
many SQL queries.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sixclub_bench \\
        .venv/bin/python bench/admin_pages.py [--generate] [--json after.json] \\
            [--compare before.json]

The data is `manage.py demo_league` (200 players, one season of 10,000 games): `--generate`
(re)creates it, otherwise the league `--slug` is reused when it exists and created when it
does not. The bench adds what the demo lacks for the admin's pages, once: a site admin
(`bench_root`), a league admin (`bench_admin`, an active member), an evening and a
tournament of the season with 20 present players, and 3 players waiting to join.

Each page goes through the whole Django stack in this process (test client, logged in,
no network): the median wall time of `--requests` requests after one warm-up (and the
median CPU time of this process, less sensitive to a busy machine: the load average is
printed), the SQL queries of one request (CaptureQueriesContext), and the size of the response. The
"recompute" action is posted once per user, after every page (it replaces the season's
standings); a background recompute it starts is waited for, and its time printed.
`--json` keeps the figures; `--compare` prints a before/after Markdown table with the
figures kept by an earlier run.
"""

import argparse
import datetime
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def prepare(slug: str, generate: bool):
    """The demo league and what the admin's pages need on top of it."""
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User
    from leagues.models import Evening, League, Membership, Tournament

    if generate or not League.objects.filter(slug=slug).exists():
        started = time.perf_counter()
        call_command("demo_league", slug=slug)
        print(f"demo_league: {time.perf_counter() - started:.1f} s")
    if connection.vendor == "postgresql":
        # The planner's statistics, as autovacuum keeps them: after the demo's bulk inserts
        # it still believes a season has a few dozen tables.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    league = League.objects.get(slug=slug)
    season = league.seasons.first()
    root, _ = User.objects.get_or_create(
        username="bench_root", defaults={"is_staff": True, "is_superuser": True}
    )
    boss, _ = User.objects.get_or_create(
        username="bench_admin", defaults={"is_staff": True, "display_name": "Bench admin"}
    )
    Membership.objects.update_or_create(
        league=league, user=boss, defaults={"status": Membership.Status.ACTIVE}
    )
    league.admins.add(boss)
    members = list(
        User.objects.filter(memberships__league=league, username__startswith="demo").order_by(
            "username"
        )[:20]
    )
    today = datetime.date.today()
    evening, created = Evening.objects.get_or_create(
        season=season, place="Bench hall", defaults={"date": today}
    )
    if created:
        evening.players.set(members)
    tournament, created = Tournament.objects.get_or_create(
        season=season, name="Bench cup", defaults={"date": today}
    )
    if created:
        tournament.players.set(members)
    for number in range(1, 4):
        waiting, _ = User.objects.get_or_create(username=f"bench_waiting{number}")
        Membership.objects.get_or_create(
            league=league, user=waiting, defaults={"status": Membership.Status.PENDING}
        )
    return league, season, root, boss, evening, tournament


def pages(league, season, evening, tournament):
    """(name, url) of every changelist and change page of the leagues and games apps."""
    from django.urls import reverse

    from games.models import Game, Table
    from leagues.models import LeagueGame, Membership, PlayerRating, Standing

    apps = {"user": "accounts", "table": "games", "game": "games"}

    def changelist(model, query=""):
        app = apps.get(model, "leagues")
        return reverse(f"admin:{app}_{model}_changelist") + query

    def change(model, pk):
        app = apps.get(model, "leagues")
        return reverse(f"admin:{app}_{model}_change", args=[pk])

    table = Table.objects.filter(league_table__season=season).order_by("pk").first()
    game = Game.objects.get(table=table)
    entry = LeagueGame.objects.get(game=game)
    membership = Membership.objects.filter(league=league).order_by("pk").first()
    standing = Standing.objects.filter(season=season).order_by("pk").first()
    rating = PlayerRating.objects.order_by("pk").first()
    player = membership.user
    by_season = f"?season__id__exact={season.pk}"
    by_league_table_season = f"?league_table__season__id__exact={season.pk}"
    by_table_season = f"?table__league_table__season__id__exact={season.pk}"
    return [
        ("admin index", reverse("admin:index")),
        ("leagues", changelist("league")),
        ("league", change("league", league.pk)),
        ("seasons", changelist("season")),
        ("season", change("season", season.pk)),
        ("memberships", changelist("membership")),
        ("memberships of the league", changelist("membership", f"?league__id__exact={league.pk}")),
        ("memberships, waiting", changelist("membership", "?status__exact=pending")),
        ("memberships, search", changelist("membership", "?q=demo01")),
        ("membership", change("membership", membership.pk)),
        ("evenings", changelist("evening")),
        ("evening", change("evening", evening.pk)),
        ("evening, add", reverse("admin:leagues_evening_add")),
        ("tournaments", changelist("tournament")),
        ("tournament", change("tournament", tournament.pk)),
        ("tables", changelist("table")),
        ("tables, search", changelist("table", "?q=demo012")),
        ("tables of the season", changelist("table", by_league_table_season)),
        ("table", change("table", table.pk)),
        ("games", changelist("game")),
        ("games, search", changelist("game", "?q=demo012")),
        ("games of the season", changelist("game", by_table_season)),
        ("game", change("game", game.pk)),
        ("league games", changelist("leaguegame")),
        ("league games, search", changelist("leaguegame", "?q=demo012")),
        ("league games of the season", changelist("leaguegame", by_season)),
        ("league game", change("leaguegame", entry.pk)),
        ("standings", changelist("standing")),
        ("standings of the season", changelist("standing", by_season)),
        ("standing", change("standing", standing.pk)),
        ("overall ratings", changelist("playerrating")),
        ("overall rating", change("playerrating", rating.pk)),
        ("players", changelist("user")),
        ("players, search", changelist("user", "?q=demo01")),
        ("player", change("user", player.pk)),
    ]


def measure(client, url, requests):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(url)
    if response.status_code != 200:
        return None
    times, cpu = [], []
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return {
        "ms": round(statistics.median(times), 1),
        "cpu_ms": round(statistics.median(cpu), 1),
        "queries": len(queries),
        "bytes": len(response.content),
    }


def measure_recompute(client, season):
    """The season changelist's "recompute" action, posted once; then, when it started a
    background recompute, the time until that one has finished (polled every 0.2 s)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from leagues.models import StandingsRecompute

    latest = StandingsRecompute.objects.filter(season=season).values_list("pk", flat=True)
    before = latest.first() or 0
    url = reverse("admin:leagues_season_changelist")
    data = {"action": "recompute_standings", "_selected_action": [season.pk]}
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.post(url, data)
        elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code in (200, 302), response.status_code
    figures = {"ms": round(elapsed, 1), "queries": len(queries), "bytes": len(response.content)}
    job = StandingsRecompute.objects.filter(season=season, pk__gt=before).first()
    if job is not None:
        while job.finished_at is None:
            time.sleep(0.2)
            job.refresh_from_db()
        figures["background_s"] = round((job.finished_at - job.requested_at).total_seconds(), 1)
    return figures


def cell(figures):
    if figures is None:
        return "—"
    text = f"{figures['ms']:,.1f} ms, {figures['queries']} q, {figures['bytes']:,} B"
    if "background_s" in figures:
        text += f" (then {figures['background_s']} s in the background)"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slug", default="demo")
    parser.add_argument("--generate", action="store_true", help="(re)create the demo league")
    parser.add_argument("--requests", type=int, default=5, help="timed requests per page")
    parser.add_argument("--no-recompute", action="store_true", help="skip the recompute action")
    parser.add_argument("--only", help="measure only the pages whose name contains this")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--compare", help="figures of an earlier run (--json) to compare with")
    args = parser.parse_args()

    import logging

    import django

    django.setup()
    logging.getLogger("axes").setLevel(logging.WARNING)
    logging.getLogger("django.request").setLevel(logging.ERROR)  # 403s of league admins
    from django.db import connection
    from django.test import Client

    league, season, root, boss, evening, tournament = prepare(args.slug, args.generate)
    games = season.league_games.count()
    members = league.memberships.count()
    print(
        f"Admin of {league.slug!r} on {connection.vendor}: {games:,} games, {members} memberships; "
        f"median of {args.requests} requests"
    )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs")
    results = {}
    clients = {}
    for who, user in (("site admin", root), ("league admin", boss)):
        clients[who] = client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(user)
        for name, url in pages(league, season, evening, tournament):
            if args.only and args.only not in name:
                continue
            results[f"{who}: {name}"] = measure(client, url, args.requests)
    # Last: a recompute replaces the season's standings (and a background one loads the
    # machine while it runs).
    if not args.no_recompute and not args.only:
        for who, client in clients.items():
            results[f"{who}: recompute action"] = measure_recompute(client, season)

    before = json.loads(Path(args.compare).read_text()) if args.compare else None
    print(f"{'page':58}{'ms':>10}{'CPU ms':>8}{'queries':>9}{'bytes':>12}")
    for name, figures in results.items():
        if figures is None:
            print(f"{name:58}{'(not shown to this user)':>31}")
            continue
        slow = " !" if figures["ms"] >= 150 or figures["queries"] > 20 else ""
        if "background_s" in figures:
            slow += f" (then {figures['background_s']} s in the background)"
        print(
            f"{name:58}{figures['ms']:>10.1f}{figures.get('cpu_ms', 0):>8.1f}"
            f"{figures['queries']:>9}{figures['bytes']:>12,}{slow}"
        )
    if before is not None:
        print("\n| page | before | after |\n|---|---|---|")
        for name, figures in results.items():
            print(f"| {name} | {cell(before.get(name))} | {cell(figures)} |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
