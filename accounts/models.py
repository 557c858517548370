from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A club player. `display_name` is what tables and standings show."""

    class TurnMails(models.TextChoices):
        EACH = "each", _("one email for each decision")
        DIGEST = "digest", _("one daily digest")
        NONE = "none", _("no email")

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("Leave empty to follow your browser."),
    )
    # Which league mails the player wants (leagues/notify.py); each kind can be turned off.
    notify_seated = models.BooleanField(
        _("email me when I am seated at a club night"),
        default=True,
        help_text=_("My table, its link and the date, for each round of an evening or tournament."),
    )
    notify_join_requests = models.BooleanField(
        _("email me when a player asks to join a league I run"), default=True
    )
    notify_sheets = models.BooleanField(
        _("email me when a score sheet waits for my confirmation"), default=True
    )
    # Turn-based tables (games/turn_mails.py): a mail per decision that waits, a digest, none.
    turn_mails = models.CharField(
        _("turn-based games: when it is my turn"),
        max_length=8,
        choices=TurnMails.choices,
        default=TurnMails.EACH,
        help_text=_("The digest lists, once a day, the tables waiting for you."),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self):
        return reverse("profile", args=[self.username])
