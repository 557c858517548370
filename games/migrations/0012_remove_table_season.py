"""A table's season is leagues' (leagues.LeagueTable, issue 30): the column goes, once
leagues' migration has copied every link."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_longer_bot_names'),
        ('leagues', '0012_league_tables'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='table',
            name='season',
        ),
    ]
