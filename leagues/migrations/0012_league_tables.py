"""The link from a table to its season moves from games to leagues (issue 30).

`games.Table.season` becomes `leagues.LeagueTable` (a one-to-one to the table, a foreign
key to the season), so that games' schema no longer depends on leagues. This migration
creates the model and copies every table's season into it; games' next migration
(`games.0012_remove_table_season`, which depends on this one) then drops the old column.
Backwards, the links are written back to `Table.season` (which games' migration has
restored by then) before the model goes.
"""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 2000


def copy_links(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    LeagueTable = apps.get_model("leagues", "LeagueTable")
    # Read whole before writing: SQLite does not isolate a query being iterated from writes
    # on the same connection. Two numbers per league table.
    links = list(Table.objects.filter(season__isnull=False).values_list("pk", "season_id"))
    LeagueTable.objects.bulk_create(
        [LeagueTable(table_id=table, season_id=season) for table, season in links],
        batch_size=BATCH,
    )


def copy_links_back(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    LeagueTable = apps.get_model("leagues", "LeagueTable")
    tables_of: dict[int, list[int]] = {}
    for table, season in LeagueTable.objects.values_list("table_id", "season_id"):
        tables_of.setdefault(season, []).append(table)
    for season, tables in tables_of.items():
        for start in range(0, len(tables), BATCH):
            Table.objects.filter(pk__in=tables[start : start + BATCH]).update(season_id=season)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_longer_bot_names'),
        ('leagues', '0011_tournament_formats'),
    ]

    operations = [
        migrations.CreateModel(
            name='LeagueTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='league_tables', to='leagues.season', verbose_name='season')),
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='league_table', to='games.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'league table',
                'verbose_name_plural': 'league tables',
            },
        ),
        migrations.RunPython(copy_links, copy_links_back),
    ]
