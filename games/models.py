"""What a live game persists.

The decision log is the truth (it is the game record of RULES §4); `Game.state` is a
snapshot of the engine state at `Game.version`, a cache that makes the next decision cheap.
`TakenCard` and `RoundScore` are derived rows written in the same transaction as the
decision that produced them, so the picked-up piles and the score sheet can be queried.
"""

import secrets
from collections import Counter

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

LIVE_TIME_LIMITS = [
    (0, _("No limit")),
    (15, _("15 seconds")),
    (30, _("30 seconds")),
    (60, _("1 minute")),
    (120, _("2 minutes")),
]
HOUR = 3600
# Turn-based tables (RULES §1.8): hours per decision, played between evenings.
TURN_BASED_LIMITS = [
    (24 * HOUR, _("24 hours")),
    (48 * HOUR, _("48 hours")),
    (72 * HOUR, _("72 hours")),
]
# A limit of a day or more makes a table turn-based.
TURN_BASED_FROM = 24 * HOUR
TIME_LIMIT_CHOICES = [*LIVE_TIME_LIMITS, (_("Turn-based"), TURN_BASED_LIMITS)]


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        # Left by its humans (games.services.presence): an open table nobody came back to,
        # or a friendly game nobody finished. Kept as a record; listed nowhere live.
        ABANDONED = "abandoned", _("Abandoned")

    # The game (games.kinds): set by whoever makes the table (games.services.table_create).
    kind = models.CharField(_("game"), max_length=16)
    name = models.CharField(_("name"), max_length=60, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_tables",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    seats_count = models.PositiveSmallIntegerField(_("players"))
    options = models.JSONField(_("options"), default=dict)
    # Seconds per decision; from TURN_BASED_FROM on, the table is turn-based.
    time_limit = models.PositiveIntegerField(
        _("time per decision"), choices=TIME_LIMIT_CHOICES, default=0
    )
    is_public = models.BooleanField(_("public"), default=True)
    # Seats kept for the players it was made for (a club night's seating): not offered in
    # the lobby, and only they sit (the app that reserved it refuses others, seat_wanted).
    reserved = models.BooleanField(_("reserved seats"), default=False)
    # Played with real cards: its game is the score sheet entered for it (services.paper_result).
    paper = models.BooleanField(_("played on paper"), default=False)
    show_played = models.BooleanField(_("played-cards panel"), default=False)
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=new_invite_code
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    # Set for duplicate tournaments: every table of a round is dealt from the same seed.
    deal_seed = models.BigIntegerField(_("deal seed"), null=True, blank=True)
    # The new table a player of this finished one opened to play again (services.table_rematch):
    # its other players are offered to join it.
    rematch = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
        verbose_name=_("rematch"),
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["status", "is_public"])]

    def __str__(self):
        return self.name or _("Table %(id)s") % {"id": self.pk}

    def get_absolute_url(self):
        return reverse("table", args=[self.pk])

    @property
    def turn_based(self) -> bool:
        """Hours per decision, played between evenings: presence does not apply, and a
        player is mailed when a decision waits for her (RULES §1.8)."""
        return self.time_limit >= TURN_BASED_FROM

    @property
    def time_limit_label(self) -> str:
        """The limit as the table's pages say it ("" without one)."""
        if self.turn_based:
            hours = self.time_limit // HOUR
            return _("Turn-based: %(hours)s h per decision") % {"hours": hours}
        if self.time_limit:
            return _("%(s)s s per decision") % {"s": self.time_limit}
        return ""


def number_bots(seats) -> list["Seat"]:
    """A whole table's seats, as a list in position order, with each bot that shares its
    level with another bot of the table numbered by seat order: "Expert bot 1", "Expert
    bot 2" (Seat.name). A bot alone at its level keeps its plain label."""
    seats = sorted(seats, key=lambda seat: seat.position)
    levels = Counter(seat.bot for seat in seats if seat.bot)
    counted = Counter()
    for seat in seats:
        if seat.bot and levels[seat.bot] > 1:
            counted[seat.bot] += 1
            seat.bot_number = counted[seat.bot]
    return seats


class SeatQuerySet(models.QuerySet):
    def named(self) -> list["Seat"]:
        """A whole table's seats, ready to show: players with their user, bots of one
        level numbered (number_bots)."""
        return number_bots(self.select_related("user"))


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    # A bot of the table's game (games.kinds: each game registers its bots' names).
    bot = models.CharField(_("bot"), max_length=32, blank=True)
    # A player who left is played by the RULES §1.8 fallback until they come back.
    away = models.BooleanField(_("away"), default=False)
    # Decisions the time limit took for this player in a row since their own last one
    # (services.game_timeout): at AWAY_AFTER_TIMEOUTS the seat is marked away.
    timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    # Presence (games.services.presence): when a socket of the player's was last known open
    # at this table, and since when they have been away.
    seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)
    # Away on purpose ("Leave"): the computer plays for her at once, not after the away wait.
    left = models.BooleanField(_("left the game"), default=False)
    # Seconds of the player's time bank left for this game, spent when a decision runs
    # over the table's time limit.
    bank = models.PositiveIntegerField(_("time bank"), default=0)
    # The user ids of the other players who voted to give this seat to a bot.
    replace_votes = models.JSONField(_("votes to replace"), default=list, blank=True)
    # Turn-based tables only (services.decisions): since when a decision waits for this
    # player, and when she was mailed about it (games.turn_mails); null otherwise.
    awaited_since = models.DateTimeField(_("decision awaited since"), null=True, blank=True)
    mailed_at = models.DateTimeField(_("mailed about it at"), null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    # Not a column: set by `number_bots` on the seats of one table, this bot's number
    # among the table's bots of its level when there are several.
    bot_number = None

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["position"]
        indexes = [
            models.Index(
                fields=["user"],
                condition=models.Q(awaited_since__isnull=False),
                name="seat_awaited",
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_player"),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=True) | models.Q(bot="")),
                name="seat_is_player_or_bot",
            ),
        ]

    def __str__(self):
        return str(self.name)

    @property
    def name(self):
        """What a table shows of the seat: the player's display name, or the bot's label
        (numbered when the table's seats were read with `named`: "Expert bot 2").

        A bot's label stays lazy: it is translated where it is drawn, in the language of
        that page or frame. A snapshot's contexts are kept and shared by readers of every
        language (games.rendering), so a name fixed when they were built would show in the
        first reader's language to all. Use `str(seat)` where a plain string is needed.
        """
        if self.user_id:
            return self.user.shown_name
        from games import kinds  # kinds reads this module's models

        if self.bot_number:
            return format_lazy("{} {}", kinds.bot_label(self.bot), self.bot_number)
        return kinds.bot_label(self.bot)


# What a decision changes in its game's row.
GAME_PLAY_FIELDS = [
    "state",
    "version",
    "point_version",
    "point_started_at",
    "deadline",
    "finished_at",
    "result",
]


class Game(models.Model):
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="game", verbose_name=_("table")
    )
    seed = models.BigIntegerField(_("seed"))
    # The engine snapshot after `version` accepted decisions (games.engine dump()).
    state = models.JSONField(_("state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    # The version at which the current decision point (turn, row choice, pick) opened: a
    # decision made on a screen older than that is refused as stale.
    point_version = models.PositiveIntegerField(_("decision point version"), default=0)
    # When that decision point opened: each awaited seat's own deadline counts from it.
    point_started_at = models.DateTimeField(_("decision point opened"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Time is data: the clock claims expired deadlines (RULES §1.8), whatever restarted.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    # Bumped whenever a seat of this game is saved or deleted (games.signals): a process
    # may reuse the seats it read for an earlier decision while it has not moved.
    seats_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self):
        return _("Game of %(table)s") % {"table": self.table}


class Decision(models.Model):
    class Source(models.TextChoices):
        PLAYER = "player", _("player")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("time ran out")
        AWAY = "away", _("player away")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="decisions")
    # The game version this decision produced: 1 for the first one.
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    source = models.CharField(max_length=8, choices=Source.choices)
    # The client's own id for the message, so that a resent decision is applied once.
    client_id = models.CharField(max_length=64, blank=True)
    # This decision revealed a turn's cards (the engine's "revealed" event): the turns of
    # the log start and end there (selectors.computer_played_turns).
    reveals = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_decision_per_version"),
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"],
                condition=~models.Q(client_id=""),
                name="client_decision_once",
            ),
        ]

    def __str__(self):
        return f"#{self.seq} seat {self.seat}: {self.payload}"


class TakenCard(models.Model):
    """A card in a penalty pile: who took it, in which round and turn (the picked-up piles)."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="taken_cards", verbose_name=_("game")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    turn = models.PositiveSmallIntegerField(_("turn"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    card = models.PositiveSmallIntegerField(_("card"))
    heads = models.PositiveSmallIntegerField(_("heads"))

    class Meta:
        verbose_name = _("picked-up card")
        verbose_name_plural = _("picked-up cards")
        ordering = ["round", "turn", "seat", "card"]
        indexes = [models.Index(fields=["game", "seat"])]

    def __str__(self):
        return f"{self.card} ({self.heads})"


class RoundScore(models.Model):
    """One line of the score sheet: the heads a seat took in a round."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="round_scores", verbose_name=_("game")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    heads = models.PositiveSmallIntegerField(_("score"))

    class Meta:
        verbose_name = _("score sheet line")
        verbose_name_plural = _("score sheet lines")
        ordering = ["round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "round", "seat"], name="one_score_per_round")
        ]

    def __str__(self):
        return f"round {self.round}, seat {self.seat}: {self.heads}"


class DigestDay(models.Model):
    """A day whose digest of waiting turn-based decisions was queued: the row is the
    claim, so that one of the processes' clocks queues it, once (games.turn_mails)."""

    day = models.DateField(_("day"), unique=True)
    queued_at = models.DateTimeField(_("queued at"), auto_now_add=True)

    class Meta:
        verbose_name = _("digest day")
        verbose_name_plural = _("digest days")

    def __str__(self):
        return str(self.day)


class Review(models.Model):
    """The post-game review of one player's seat (games.reviews): each of her decisions
    with the expert's estimate of every option, the costliest first."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reviews",
        verbose_name=_("player"),
    )
    # What her choices cost against the expert's, in the game's unit (heads or points).
    cost = models.FloatField(_("cost"))
    # Each decision: seq, replay step, round, turn, source, the decision, the options
    # weighed ({"decision", "estimate"}, the expert's first), `choice`, `cost`, `estimated`.
    decisions = models.JSONField(_("decisions"), default=list)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_review_per_seat")]

    def __str__(self):
        return f"{self.game_id} seat {self.seat}: {self.cost}"
