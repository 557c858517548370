from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        from django.db.models.signals import m2m_changed

        from games import signals
        from leagues import receivers, tv
        from leagues.models import League

        signals.seat_wanted.connect(receivers.refuse_non_members, dispatch_uid="leagues.seats")
        signals.game_finished.connect(receivers.enter_league_result, dispatch_uid="leagues.results")
        signals.game_finished.connect(receivers.rate_site_game, dispatch_uid="leagues.ratings")
        signals.seasons_offered.connect(receivers.open_seasons, dispatch_uid="leagues.seasons")
        signals.table_created.connect(
            receivers.link_league_table, dispatch_uid="leagues.league_tables"
        )
        signals.counted_in.connect(receivers.season_shown, dispatch_uid="leagues.season_shown")
        signals.seat_standings.connect(receivers.seat_standings, dispatch_uid="leagues.standings")
        signals.table_runners.connect(
            receivers.league_admins_run_tables, dispatch_uid="leagues.table_runners"
        )
        signals.tables_closed.connect(
            receivers.close_members_only_tables, dispatch_uid="leagues.members_only"
        )
        m2m_changed.connect(
            receivers.admins_are_members,
            sender=League.admins.through,
            dispatch_uid="leagues.admins_are_members",
        )
        tv.connect()
