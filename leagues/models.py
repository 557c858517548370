"""Leagues: clubs keep score across evenings, seasons and tournaments."""

import datetime
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from leagues.scoring import START_MU, START_SIGMA


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class League(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), unique=True)
    description = models.TextField(_("description"), blank=True)
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone can see the standings of a public league.")
    )
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="administered_leagues",
        verbose_name=_("admins"),
    )
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=new_invite_code
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league", args=[self.slug])

    def get_invite_url(self):
        return reverse("league_invite", args=[self.invite_code])

    def get_members_admin_url(self, status: str = "") -> str:
        """The admin's list of this league's memberships (of one status): where its members
        are managed."""
        query = f"?league__id__exact={self.pk}"
        if status:
            query += f"&status__exact={status}"
        return reverse("admin:leagues_membership_changelist") + query

    def is_admin(self, user) -> bool:
        """Site superusers and the league's own admins run the league."""
        if not user.is_authenticated:
            return False
        return user.is_superuser or self.admins.filter(pk=user.pk).exists()


def game_kinds():
    from games import kinds

    return kinds.choices()


def default_kind() -> str:
    """The site's default game (the first registered: games.kinds.default)."""
    from games import kinds

    return kinds.default()


class Season(models.Model):
    class Ranking(models.TextChoices):
        # The game's own score: heads per round, or points per hand for a game where the
        # highest total wins (Kind.higher_wins).
        MEAN_HEADS = "mean_heads", _("Mean score per round")
        TOTAL_HEADS = "total_heads", _("Total score")
        PLACEMENT = "placement", _("Placement points")
        # Fair to occasional players: what a game is worth on average, or only the best.
        MEAN_PLACEMENT = "mean_placement", _("Placement points per game")
        BEST_RESULTS = "best_results", _("Placement points of the best results")
        RATING = "rating", _("Rating")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(
        _("game"),
        max_length=20,
        choices=game_kinds,
        default=default_kind,
        help_text=_("The game this season counts. Its tables play this game only."),
    )
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    ranking = models.CharField(
        _("ranking method"), max_length=16, choices=Ranking.choices, default=Ranking.MEAN_HEADS
    )
    placement_points = models.CharField(
        _("placement points"),
        max_length=60,
        default="6,5,3,1,0",
        help_text=_("Points for 1st, 2nd, 3rd… place, separated by commas."),
    )
    best_results = models.PositiveSmallIntegerField(
        _("best results counted"),
        default=10,
        validators=[MinValueValidator(1)],
        help_text=_(
            "For the ranking by best results: how many of each player's games count (the "
            "ones with the most placement points)."
        ),
    )
    min_games = models.PositiveSmallIntegerField(_("games before being ranked"), default=3)
    players_enter_sheets = models.BooleanField(
        _("players enter score sheets"),
        default=True,
        help_text=_(
            "Members may enter the score sheets of games played with real cards (their "
            "players confirm them). Off: only the league's admins enter them."
        ),
    )
    absence_score = models.IntegerField(
        _("score of an absence"),
        null=True,
        blank=True,
        help_text=_(
            "The score (heads or points, in the season's game's unit) counted as one game for a "
            "player marked absent at a club night or given a bye. Empty: absences and byes "
            "count nothing."
        ),
    )
    closed = models.BooleanField(_("closed"), default=False)
    allow_turn_based = models.BooleanField(
        _("turn-based games allowed"),
        default=False,
        help_text=_(
            "Members may open tables of this season with 24 to 72 hours per decision, "
            "played between evenings (a round by mail)."
        ),
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on"]

    def __str__(self):
        return f"{self.league} — {self.name}"

    def clean(self):
        try:
            parse_points(self.placement_points)
        except ValueError:
            raise ValidationError(
                {"placement_points": _("Write whole numbers separated by commas, e.g. 6,5,3,1,0.")}
            ) from None
        if self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})

    def points_table(self) -> tuple[int, ...]:
        return parse_points(self.placement_points)

    @property
    def game(self):
        """The registered game this season counts (games.kinds.Kind)."""
        from games import kinds

        return kinds.get(self.kind)

    @property
    def ranking_label(self):
        """The ranking method in the words of the season's game (heads, or points)."""
        if self.ranking == self.Ranking.MEAN_HEADS:
            return self.game.per_round_label
        if self.ranking == self.Ranking.TOTAL_HEADS:
            return self.game.score_label
        return self.get_ranking_display()

    @property
    def is_open(self) -> bool:
        """Open for new league tables: not closed, and today is within its dates."""
        today = timezone.localdate()
        return (
            not self.closed
            and self.starts_on <= today
            and (self.ends_on is None or today <= self.ends_on)
        )


def parse_points(text: str) -> tuple[int, ...]:
    """Read "6,5,3,1,0" as (6, 5, 3, 1, 0); ValueError on anything but whole numbers ≥ 0."""
    points = tuple(int(part) for part in text.replace(" ", "").split(",") if part != "")
    if not points or any(value < 0 for value in points):
        raise ValueError(text)
    return points


class Membership(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        ACTIVE = "active", _("Member")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("league")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("player"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]

    def __str__(self):
        return f"{self.user} @ {self.league}"


class LeagueTable(models.Model):
    """A table that counts in a season: only the league's members sit there, and its game
    enters the season's standings when it ends.

    The link is the league's, not the table's: games knows nothing of seasons. It is made
    when a table is opened for a season (a league game chosen in the lobby, the rematch of
    one, a club night's seating, a score sheet entered on paper: leagues.services), and
    read as `table.league_table.season` or `Table.objects.filter(league_table__season=…)`.
    """

    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="league_table",
        verbose_name=_("table"),
    )
    # PROTECT, as when the table held the season: a season with tables is not deleted.
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="league_tables", verbose_name=_("season")
    )

    class Meta:
        verbose_name = _("league table")
        verbose_name_plural = _("league tables")

    def __str__(self):
        return f"{self.table} @ {self.season}"


def season_of(table) -> Season | None:
    """The season `table` counts in, or None for a friendly game. Reads the link once per
    table object (select_related("league_table__season") reads it with the table)."""
    link = getattr(table, "league_table", None)  # a missing reverse one-to-one: the default
    return link.season if link is not None else None


def season_id_of(table) -> int | None:
    """The id of `season_of(table)`, without reading the season's row."""
    link = getattr(table, "league_table", None)
    return link.season_id if link is not None else None


# --- standings: what the league keeps of each finished game ------------------------------


class LeagueGame(models.Model):
    """A finished game as it entered its season: the unit that standings are made of.

    Entries are ordered by primary key, which is the order they entered the league (under
    the season's row lock); recomputing replays them in that order, so ratings, which
    depend on the order of games, come out exactly as they were accumulated.
    """

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="league_games", verbose_name=_("season")
    )
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="league_entry",
        verbose_name=_("game"),
    )
    finished_at = models.DateTimeField(_("finished at"))
    # A voided game stays in the season's history but counts in nothing (ResultChange).
    void = models.BooleanField(_("void"), default=False)

    class Meta:
        verbose_name = _("league game")
        verbose_name_plural = _("league games")
        ordering = ["pk"]

    def __str__(self):
        return str(self.game)


class Placing(models.Model):
    """A member's line in a league game: heads, finishing place, and ratings after it."""

    entry = models.ForeignKey(
        LeagueGame, on_delete=models.CASCADE, related_name="placings", verbose_name=_("league game")
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="placings", verbose_name=_("season")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="placings",
        verbose_name=_("player"),
    )
    finished_at = models.DateTimeField(_("finished at"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The game's score: heads, or points for a game whose points can be negative.
    heads = models.IntegerField(_("score"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    # 1 is first; equal totals share the place (RULES §1.6), bots included.
    place = models.PositiveSmallIntegerField(_("finishing place"))
    won = models.BooleanField(_("won"))
    points = models.PositiveSmallIntegerField(_("placement points"))
    # The ratings after this game: in the season, and over all of the player's games.
    mu = models.FloatField(_("μ (season)"))
    sigma = models.FloatField(_("σ (season)"))
    overall_mu = models.FloatField(_("μ (overall)"))
    overall_sigma = models.FloatField(_("σ (overall)"))

    class Meta:
        verbose_name = _("placing")
        verbose_name_plural = _("placings")
        ordering = ["entry_id", "seat"]
        indexes = [models.Index(fields=["user", "entry"])]
        constraints = [
            models.UniqueConstraint(fields=["entry", "user"], name="one_placing_per_game")
        ]

    def __str__(self):
        return f"{self.user} #{self.place} ({self.heads})"


class Tallied(models.Model):
    """A member's running totals (scoring.Tally), kept so that a page of standings reads one
    row per player instead of adding up every game on each request."""

    games = models.PositiveIntegerField(_("games"), default=0)
    rounds = models.PositiveIntegerField(_("rounds"), default=0)
    heads = models.IntegerField(_("score"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    points = models.PositiveIntegerField(_("placement points"), default=0)
    mu = models.FloatField("μ", default=START_MU)
    sigma = models.FloatField("σ", default=START_SIGMA)
    last_played = models.DateTimeField(_("last played"), null=True, blank=True)
    # The latest games, oldest first, as [score, rounds] pairs: the trend chart.
    trend = models.JSONField(_("trend"), default=list, blank=True)

    class Meta:
        abstract = True

    @property
    def rating(self) -> float:
        return conservative(self.mu, self.sigma)


class Standing(Tallied):
    """A member's running totals in a season, updated as each game enters it."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standings", verbose_name=_("season")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("player"),
    )

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="one_standing_per_season")
        ]

    def __str__(self):
        return f"{self.user} @ {self.season}"


class MonthStanding(Tallied):
    """A member's running totals over the games (and counted absences) of one month of a
    season, kept as the season's are: the month's standings page reads them the same way.
    The rating is the season's after the member's latest game of the month."""

    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        related_name="month_standings",
        verbose_name=_("season"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="month_standings",
        verbose_name=_("player"),
    )
    # The month's first day, in the club's time zone.
    month = models.DateField(_("month"))

    class Meta:
        verbose_name = _("standing of a month")
        verbose_name_plural = _("standings of a month")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "month", "user"], name="one_standing_per_season_month"
            )
        ]

    def __str__(self):
        return f"{self.user} @ {self.season} ({self.month:%Y-%m})"


def month_of(when) -> datetime.date:
    """The first day of the month of `when` (an aware datetime) in the club's time zone."""
    return timezone.localtime(when).date().replace(day=1)


class PlayerRating(models.Model):
    """A player's rating in one game over all of their league games of it, every league
    and season."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="league_ratings",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("game"), max_length=20, choices=game_kinds, default=default_kind)
    mu = models.FloatField("μ", default=START_MU)
    sigma = models.FloatField("σ", default=START_SIGMA)
    games = models.PositiveIntegerField(_("games"), default=0)

    class Meta:
        verbose_name = _("overall rating")
        verbose_name_plural = _("overall ratings")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_game")]

    def __str__(self):
        return f"{self.user}: {self.rating:.1f}"

    @property
    def rating(self) -> float:
        return conservative(self.mu, self.sigma)


class SiteRating(models.Model):
    """A player's site rating in one game: every finished game of it with at least two
    humans, friendly or league (leagues.ratings). A league's season keeps its own."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="site_ratings",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("game"), max_length=20, choices=game_kinds, default=default_kind)
    mu = models.FloatField("μ", default=START_MU)
    sigma = models.FloatField("σ", default=START_SIGMA)
    games = models.PositiveIntegerField(_("games"), default=0)
    updated_at = models.DateTimeField(_("updated at"), null=True, blank=True)

    class Meta:
        verbose_name = _("site rating")
        verbose_name_plural = _("site ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_site_rating_per_game")
        ]
        indexes = [models.Index(fields=["kind", "games"])]

    def __str__(self):
        return f"{self.user}: {self.rating:.1f}"

    @property
    def rating(self) -> float:
        return conservative(self.mu, self.sigma)


class RatedGame(models.Model):
    """One player's line in one game that moved the site ratings: where she finished, her
    score, and her rating before and after (the history a profile draws)."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="rated_lines", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rated_games",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("game"), max_length=20, choices=game_kinds, default=default_kind)
    seat = models.PositiveSmallIntegerField(_("seat"))
    # Among all the table's seats, bots included (scoring.places): 1, 1, 3…
    place = models.PositiveSmallIntegerField(_("place"))
    players = models.PositiveSmallIntegerField(_("players"))
    score = models.IntegerField(_("score"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    mu_before = models.FloatField("μ before")
    sigma_before = models.FloatField("σ before")
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    finished_at = models.DateTimeField(_("finished at"))

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rated_line_per_player")
        ]
        indexes = [models.Index(fields=["user", "kind", "finished_at"])]

    def __str__(self):
        return f"{self.user} #{self.place} ({self.game_id})"

    @property
    def rating(self) -> float:
        return conservative(self.mu, self.sigma)

    @property
    def rating_before(self) -> float:
        return conservative(self.mu_before, self.sigma_before)


def conservative(mu: float, sigma: float) -> float:
    """The rating shown: one can be fairly sure the player's skill is at least this."""
    return mu - 3 * sigma


# --- club evenings and tournaments ----------------------------------------------------------


class SeatingMethod(models.TextChoices):
    RANDOM = "random", _("Random")
    STANDING = "standing", _("By standing")
    # Tournaments: by tournament score (placement points), ties broken by the opponents'
    # scores; an evening seats it by standing.
    SWISS = "swiss", _("Swiss")


class ClubEvent(models.Model):
    """What evenings and tournaments share: who came, and how their tables are seated."""

    season = models.ForeignKey(Season, on_delete=models.PROTECT, verbose_name=_("season"))
    date = models.DateField(_("date"))
    # Empty: a whole-day event (the calendar's, the mails'); else a timed one, at the club's
    # time (settings.TIME_ZONE).
    starts_at = models.TimeField(
        _("starts at"),
        null=True,
        blank=True,
        help_text=_(
            "The time it starts, at the club: the calendar and the mails give it. Empty: "
            "a whole-day event."
        ),
    )
    place = models.CharField(_("place"), max_length=120, blank=True)
    players = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, verbose_name=_("present players")
    )
    seating = models.CharField(
        _("seating method"),
        max_length=10,
        choices=SeatingMethod.choices,
        default=SeatingMethod.RANDOM,
        help_text=_(
            "By standing, players of similar rank meet. Both avoid repeat opponents where they can."
        ),
    )
    min_table_size = models.PositiveSmallIntegerField(
        _("fewest players per table"),
        default=2,
        validators=[MinValueValidator(2), MaxValueValidator(10)],
    )
    table_size = models.PositiveSmallIntegerField(
        _("most players per table"),
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(10)],
        help_text=_(
            "The seating makes as few tables as it can with at most this many players, and "
            "at least the fewest (4 to 5: 9 players sit 5 + 4). In duplicate, every table "
            "has exactly this many."
        ),
    )
    threshold = models.PositiveSmallIntegerField(
        _("threshold (heads)"),
        default=66,
        validators=[MinValueValidator(1), MaxValueValidator(500)],
    )
    game_rounds = models.PositiveSmallIntegerField(
        _("rounds per game"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text=_("Leave empty to play each game to the threshold."),
    )
    # The club room's TV view shows this table's game as a spectator sees it: a number,
    # not a table, so that it follows the tables of each new round.
    tv_table = models.PositiveSmallIntegerField(
        _("table on the TV"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_(
            "The number of the table of the current round whose game the TV view shows "
            "(as a spectator sees it). Empty: none."
        ),
    )

    class Meta:
        abstract = True

    @property
    def league(self):
        return self.season.league

    def clean(self):
        if getattr(self, "final_after", None) and self.final_after >= self.rounds:
            raise ValidationError(
                {
                    "final_after": _(
                        "The final table is one of the tournament's rounds: after fewer rounds."
                    )
                }
            )
        if self.min_table_size and self.table_size and self.min_table_size > self.table_size:
            raise ValidationError(
                {"min_table_size": _("The fewest players cannot be more than the most.")}
            )

    def starts(self) -> datetime.datetime | None:
        """When it starts, at the club's time (settings.TIME_ZONE); None for a whole-day
        event."""
        if self.starts_at is None:
            return None
        start = datetime.datetime.combine(self.date, self.starts_at)
        return timezone.make_aware(start, timezone.get_default_timezone())

    def table_options(self) -> dict:
        if self.game_rounds:
            return {"end": "rounds", "rounds": self.game_rounds}
        return {"end": "threshold", "threshold": self.threshold}


class Evening(ClubEvent):
    """A club session: a date, a place, who came and the games they played."""

    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("club evening")
        verbose_name_plural = _("club evenings")
        ordering = ["-date", "-pk"]
        default_related_name = "evenings"

    def __str__(self):
        return _("Evening of %(date)s") % {"date": date_format(self.date)}

    def get_absolute_url(self):
        return reverse("league_evening", args=[self.season.league.slug, self.pk])


class Tournament(ClubEvent):
    name = models.CharField(_("name"), max_length=80)
    rounds = models.PositiveSmallIntegerField(
        _("number of rounds"), default=3, validators=[MinValueValidator(1)]
    )
    duplicate = models.BooleanField(
        _("duplicate"),
        default=False,
        help_text=_(
            "Every table of a round plays the same deals, so luck cancels out. Every table "
            "then has the same number of players."
        ),
    )
    final_after = models.PositiveSmallIntegerField(
        _("final table after round"),
        null=True,
        blank=True,
        help_text=_(
            "After this many rounds, the next round is one final table of the best players "
            "of the tournament. Empty: no final table."
        ),
    )
    final_size = models.PositiveSmallIntegerField(
        _("players at the final table"),
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(10)],
    )
    registration_open = models.BooleanField(
        _("registration open"),
        default=True,
        help_text=_("Members register on the tournament's page; the admin checks them in."),
    )

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "-pk"]
        default_related_name = "tournaments"

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league_tournament", args=[self.season.league.slug, self.pk])


class Registration(models.Model):
    """A member registered for a tournament. Checking in on the night makes them one of
    the tournament's present players, whom the seating seats."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player")
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="one_registration_per_player"
            )
        ]

    def __str__(self):
        return f"{self.user} — {self.tournament}"


class SeatedTable(models.Model):
    """A table of an event's round, as the seating generated it: its seats are reserved
    for the players seated there (`reserved_for`, user ids), whom the league admin may
    swap, replace or remove before the game starts."""

    round = models.PositiveSmallIntegerField(_("round"))
    number = models.PositiveSmallIntegerField(_("table number"))
    reserved_for = models.JSONField(_("seated players"), default=list, blank=True)

    class Meta:
        abstract = True
        ordering = ["round", "number"]


def seated_table_of(table) -> "EveningTable | TournamentTable | None":
    """The seat of `table` in an evening's or a tournament's round, if a seating made it."""
    for name in ("evening_slot", "tournament_slot"):
        # A missing reverse one-to-one raises an AttributeError: getattr's default.
        slot = getattr(table, name, None)
        if slot is not None:
            return slot
    return None


class EveningTable(SeatedTable):
    evening = models.ForeignKey(
        Evening,
        on_delete=models.CASCADE,
        related_name="seated_tables",
        verbose_name=_("club evening"),
    )
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="evening_slot",
        verbose_name=_("table"),
    )

    class Meta(SeatedTable.Meta):
        verbose_name = _("evening table")
        verbose_name_plural = _("evening tables")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "round", "number"], name="one_evening_table_per_number"
            )
        ]

    def __str__(self):
        return str(self.table)

    @property
    def event(self) -> Evening:
        return self.evening


class TournamentTable(SeatedTable):
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="seated_tables",
        verbose_name=_("tournament"),
    )
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="tournament_slot",
        verbose_name=_("table"),
    )

    class Meta(SeatedTable.Meta):
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "number"], name="one_tournament_table_per_number"
            )
        ]

    def __str__(self):
        return str(self.table)

    @property
    def event(self) -> Tournament:
        return self.tournament


class Absence(models.Model):
    """A player of a club night who did not play a round: marked absent by the league admin
    (`bye` False) or left out by the seating (`bye` True). Counted as a game of the
    season's `absence_score` when the season sets one."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="absences")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences"
    )
    evening = models.ForeignKey(
        Evening, null=True, blank=True, on_delete=models.CASCADE, related_name="absences"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="absences"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    bye = models.BooleanField(_("bye"), default=False)
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        ordering = ["pk"]

    def __str__(self):
        return f"{self.user} — {self.evening or self.tournament}, {self.round}"


class ScoreSheet(models.Model):
    """A game played with real cards, as a league admin or a player entered it: the lines
    of its score sheet (one per round or hand, a number per seat: heads, or points),
    which its players confirm before it counts. Its table (`Table.paper`) holds the seats;
    once confirmed, the table's game is this sheet and enters the season like any other.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the players' confirmation")
        DISPUTED = "disputed", _("Disputed: waits for the league admin")
        CONFIRMED = "confirmed", _("Confirmed")

    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="score_sheet",
        verbose_name=_("table"),
    )
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="score_sheets", verbose_name=_("season")
    )
    played_on = models.DateField(_("played on"))
    lines = models.JSONField(_("score sheet"), default=list)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="entered_sheets",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("game played on paper")
        verbose_name_plural = _("games played on paper")
        ordering = ["-entered_at"]

    def __str__(self):
        return str(self.table)


class SheetAnswer(models.Model):
    """A player's answer to the score sheet of a game they played: confirmed, or disputed
    with a reason."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player")
    )
    confirmed = models.BooleanField(_("confirmed"))
    reason = models.TextField(_("reason"), blank=True)
    answered_at = models.DateTimeField(_("answered at"), auto_now=True)

    class Meta:
        verbose_name = _("answer")
        verbose_name_plural = _("answers")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "user"], name="one_answer_per_player")
        ]

    def __str__(self):
        return f"{self.user}: {'✓' if self.confirmed else '✗'}"


class ResultChange(models.Model):
    """A change to a finished game's result, kept for good: who, when, why, and the score
    sheet before and after. Corrections and voids are the only ways a result changes."""

    class Action(models.TextChoices):
        CORRECT = "correct", _("Corrected")
        VOID = "void", _("Voided")

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="result_changes",
        verbose_name=_("game"),
    )
    action = models.CharField(_("change"), max_length=8, choices=Action.choices)
    reason = models.TextField(_("reason"))
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"), null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("changed by")
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.get_action_display()}: {self.game}"


class StandingsRecompute(models.Model):
    """A recompute of a season's standings run by `manage.py recompute_standings`, and how far
    it has got: the season's admin page shows the latest one while it runs.

    Large seasons are recomputed in a background process (leagues.admin) so that saving a
    season's placement points does not hold the admin's request for minutes.
    """

    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        related_name="standings_recomputes",
        verbose_name=_("season"),
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    games_total = models.PositiveIntegerField(_("games"), default=0)
    games_done = models.PositiveIntegerField(_("games recomputed"), default=0)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("standings recompute")
        verbose_name_plural = _("standings recomputes")
        ordering = ["-pk"]

    def __str__(self):
        return f"{self.season} #{self.pk}"
