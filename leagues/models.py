"""Leagues: clubs keep score across evenings, seasons and tournaments."""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


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
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("league", args=[self.slug])


class Season(models.Model):
    class Ranking(models.TextChoices):
        MEAN_HEADS = "mean_heads", _("Mean heads per round")
        TOTAL_HEADS = "total_heads", _("Total heads")
        PLACEMENT = "placement", _("Placement points")
        RATING = "rating", _("Rating")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
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
    min_games = models.PositiveSmallIntegerField(_("games before being ranked"), default=3)
    closed = models.BooleanField(_("closed"), default=False)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on"]

    def __str__(self):
        return f"{self.league} — {self.name}"


class Membership(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        ACTIVE = "active", _("Member")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]

    def __str__(self):
        return f"{self.user} @ {self.league}"
