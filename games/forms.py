from django import forms
from django.utils.translation import gettext_lazy as _

from games import signals
from games.models import BOT_CHOICES, TIME_LIMIT_CHOICES


class TableForm(forms.Form):
    """A new 6 qui prend ! table: every option of RULES §1.5–1.8."""

    name = forms.CharField(label=_("Name"), max_length=60, required=False)
    seats_count = forms.TypedChoiceField(
        label=_("Players"),
        coerce=int,
        initial=4,
        choices=[(n, str(n)) for n in range(2, 11)],
    )
    end = forms.ChoiceField(
        label=_("End of the game"),
        initial="threshold",
        choices=[
            ("threshold", _("When a player reaches the threshold")),
            ("rounds", _("After a fixed number of rounds")),
        ],
    )
    threshold = forms.IntegerField(
        label=_("Threshold (heads)"), min_value=1, max_value=500, initial=66
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=20,
        initial=1,
        help_text=_("1 is the single-round variant."),
    )
    deal = forms.ChoiceField(
        label=_("Deal"),
        initial="random",
        choices=[
            ("random", _("Random deal")),
            ("draft", _("Draft: each player picks their cards")),
        ],
    )
    card_limit = forms.BooleanField(
        label=_("Tactical: only cards 1 to 10 × players + 4"), required=False
    )
    live_scores = forms.BooleanField(
        label=_("Show scores during the round"), required=False, initial=True
    )
    time_limit = forms.TypedChoiceField(
        label=_("Time per decision"), coerce=int, choices=TIME_LIMIT_CHOICES, initial=0
    )
    is_public = forms.BooleanField(
        label=_("Public table"),
        required=False,
        initial=True,
        help_text=_("A private table is joined through its invite link."),
    )
    show_played = forms.BooleanField(label=_("Show the cards played this round"), required=False)
    season = forms.ModelChoiceField(
        label=_("League game"),
        queryset=None,
        required=False,
        empty_label=_("No: a friendly game"),
        help_text=_("A league game counts in the season's standings; only members sit."),
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        seasons = _seasons_offered(user) if user is not None else None
        if seasons is None or not seasons.exists():
            del self.fields["season"]
        else:
            self.fields["season"].queryset = seasons

    def options(self) -> dict:
        data = self.cleaned_data
        options = {
            "card_limit": data["card_limit"],
            "deal": data["deal"],
            "end": data["end"],
            "live_scores": data["live_scores"],
        }
        if data["end"] == "threshold":
            options["threshold"] = data["threshold"]
        else:
            options["rounds"] = data["rounds"]
        return options


def _seasons_offered(user):
    """The seasons a new table of `user` may count in, as the league app answers
    (games.signals.seasons_offered); None when no app offers any."""
    for _receiver, seasons in signals.seasons_offered.send(sender=TableForm, user=user):
        if seasons is not None:
            return seasons
    return None


class BotForm(forms.Form):
    bot = forms.ChoiceField(label=_("Bot"), choices=BOT_CHOICES)
