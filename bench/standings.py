"""How fast the standings page of a big league season renders, and in how many queries.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sixclub_bench \\
        .venv/bin/python bench/standings.py --generate [--players 200 --games 10000]

`--generate` first runs `manage.py demo_league` (a season of generated games among demo
players, standings computed from their score sheets); without it the league `--slug`
must exist already. The database needs its migrations (`manage.py migrate`).

Pages: the season's standings (as stored), sorted by rating, the standings of the season's
busiest month (added up from that month's placings and counted absences), the CSV.

The pages take turns, request by request. Each request goes through the whole Django
stack in this process (middleware, view, queries, template) with the test client,
anonymously; the network is left out. Figures: wall time per request, median (p50) and
95th percentile over `--requests`, after a few warm-up requests; the median CPU time of
this process per request (less sensitive to a busy machine: the load average is printed
too); the SQL queries of one request. PostgreSQL's own work shows in the wall time only.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(client, urls, requests):
    """Figures of each url. The urls take turns, request by request, in one order then the
    other: a machine that gets busier or quieter meanwhile weighs on every figure alike."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for url in urls:
        for _ in range(5):
            client.get(url)
    times = {url: [] for url in urls}
    cpu = {url: [] for url in urls}
    for turn in range(requests):
        # Every other turn the other way round: no page always follows the same one.
        for url in urls if turn % 2 == 0 else reversed(urls):
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times[url].append((time.perf_counter() - started) * 1000)
            cpu[url].append((time.process_time() - started_cpu) * 1000)
            assert response.status_code == 200, response.status_code
    figures = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        figures.append(
            (
                statistics.median(times[url]),
                percentile(times[url], 0.95),
                statistics.median(cpu[url]),
                len(queries),
                len(response.content),
            )
        )
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slug", default="bench")
    parser.add_argument("--generate", action="store_true", help="(re)create the demo league")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.db.models.functions import TruncMonth
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from leagues.models import League, Placing, Standing

    if args.generate:
        started = time.perf_counter()
        call_command("demo_league", slug=args.slug, players=args.players, games=args.games, seed=1)
        print(f"demo_league: {time.perf_counter() - started:.1f} s")
    if connection.vendor == "postgresql":
        # The planner's statistics, as autovacuum keeps them (bench/admin_pages.py): after
        # the demo's bulk inserts it would still believe a season has a few hundred games.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    league = League.objects.get(slug=args.slug)
    season = league.seasons.first()
    games = season.league_games.count()
    players = Standing.objects.filter(season=season).count()
    print(
        f"Standings of {league.slug!r} on {connection.vendor}: {games:,} games, "
        f"{players} players; {args.requests} requests per figure"
    )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs")
    client = Client(HTTP_HOST="localhost")
    url = reverse("league", args=[league.slug])
    # The month with the most games: the heaviest monthly standings of the season.
    busiest = (
        Placing.objects.filter(season=season)
        .annotate(month=TruncMonth("finished_at"))
        .values("month")
        .annotate(n=Count("pk"))
        .order_by("-n")
        .first()
    )
    month = timezone.localtime(busiest["month"]).strftime("%Y-%m")
    cases = [
        ("standings page", url),
        ("sorted by rating", f"{url}?sort=rating"),
        (f"month {month}", f"{url}?season={season.pk}&month={month}"),
        ("CSV export", reverse("league_standings_csv", args=[league.slug])),
    ]
    print(f"{'':20}{'p50 ms':>9}{'p95 ms':>9}{'CPU ms':>9}{'queries':>9}{'bytes':>10}")
    figures = measure(client, [target for _name, target in cases], args.requests)
    for (name, _target), (p50, p95, cpu, queries, size) in zip(cases, figures, strict=True):
        print(f"{name:20}{p50:>9.1f}{p95:>9.1f}{cpu:>9.1f}{queries:>9}{size:>10,}")


if __name__ == "__main__":
    main()
