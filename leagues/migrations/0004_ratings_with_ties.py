"""Recompute every stored rating with the rating model of `leagues.scoring` (issue 19).

Ratings were Plackett–Luce (openskill 6.2), which mishandles ties; `scoring.rate` is now
Bradley–Terry with full pairing. This replays every league game's ratings from its
placings, in the order games entered (`LeagueGame` primary key), exactly as
`services.game_finished` accumulated them: per season on `Standing` and `Placing.mu/sigma`,
over all leagues on `PlayerRating` and `Placing.overall_mu/overall_sigma`. Nothing else
changes (places, points, wins, games).

It reads historical models only, and ratings need nothing but each member's heads in
each game, which the placings keep (bots take no part in ratings): so neither the score
sheets of the games app nor `services.season_recompute` (which works on the current
models, rebuilds a season's places and points as well, and replays the overall ratings
once per season) is involved, and later schema changes cannot break it. It calls
`scoring.rate` as it is when the migration runs: a later change of model needs a
migration like this one again.
"""

import itertools

from django.db import migrations

from leagues import scoring

BATCH = 1000


def recompute_ratings(apps, schema_editor):
    Placing = apps.get_model("leagues", "Placing")
    Standing = apps.get_model("leagues", "Standing")
    PlayerRating = apps.get_model("leagues", "PlayerRating")
    start = (scoring.START_MU, scoring.START_SIGMA)

    # Read whole before writing: SQLite does not isolate a query being iterated from
    # writes to its table on the same connection. A few numbers per placing.
    rows = list(
        Placing.objects.order_by("entry_id", "seat").values_list(
            "id", "entry_id", "season_id", "user_id", "heads"
        )
    )
    in_season: dict[tuple[int, int], tuple[float, float]] = {}
    overall: dict[int, tuple[float, float]] = {}
    changed = []
    for pk, mine, everywhere in games_replayed(rows, in_season, overall):
        changed.append(
            Placing(
                pk=pk,
                mu=mine[0],
                sigma=mine[1],
                overall_mu=everywhere[0],
                overall_sigma=everywhere[1],
            )
        )
        if len(changed) == BATCH:
            Placing.objects.bulk_update(changed, ["mu", "sigma", "overall_mu", "overall_sigma"])
            changed = []
    Placing.objects.bulk_update(changed, ["mu", "sigma", "overall_mu", "overall_sigma"])

    standings = list(Standing.objects.only("id", "season_id", "user_id"))
    for standing in standings:
        standing.mu, standing.sigma = in_season.get((standing.season_id, standing.user_id), start)
    Standing.objects.bulk_update(standings, ["mu", "sigma"], batch_size=BATCH)

    ratings = list(PlayerRating.objects.only("id", "user_id"))
    for rating in ratings:
        rating.mu, rating.sigma = overall.get(rating.user_id, start)
    PlayerRating.objects.bulk_update(ratings, ["mu", "sigma"], batch_size=BATCH)


def games_replayed(rows, in_season, overall):
    """Replay the ratings game by game from placing rows (id, entry_id, season_id, user_id,
    heads) ordered by entry, then seat; fill `in_season` and `overall` with the ratings
    after the last game, and yield (placing id, season rating, overall rating) after each
    game."""
    start = (scoring.START_MU, scoring.START_SIGMA)
    for _entry, game in itertools.groupby(rows, key=lambda row: row[1]):
        game = list(game)
        heads = [row[4] for row in game]
        keys = [(season_id, user_id) for _pk, _entry, season_id, user_id, _heads in game]
        mine = scoring.rate([in_season.get(key, start) for key in keys], heads)
        everywhere = scoring.rate([overall.get(user, start) for _season, user in keys], heads)
        for row, key, season_rating, overall_rating in zip(
            game, keys, mine, everywhere, strict=True
        ):
            in_season[key] = season_rating
            overall[key[1]] = overall_rating
            yield row[0], season_rating, overall_rating


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_standings_recompute"),
    ]

    operations = [
        migrations.RunPython(recompute_ratings, migrations.RunPython.noop, elidable=True),
    ]
