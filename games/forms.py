import copy

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import kinds, signals
from games.models import TIME_LIMIT_CHOICES


class TableForm(forms.Form):
    """A new table: the game, what every game has (seats, clock, privacy, league), and the
    game's own options (its kind's OptionsForm fields, games/kinds.py)."""

    name = forms.CharField(label=_("Name"), max_length=60, required=False)
    kind = forms.ChoiceField(
        label=pgettext_lazy("kind of game", "Game"), required=False, choices=()
    )
    seats_count = forms.TypedChoiceField(label=_("Players"), coerce=int, initial=4, choices=())
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

    def __init__(self, data=None, *args, user=None, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.game = _chosen_kind(data)
        self._offer_kinds()
        self._add_options_fields()
        seasons = _seasons_offered(user, self.game) if user is not None else None
        if seasons is None or not seasons.exists():
            del self.fields["season"]
        else:
            self.fields["season"].queryset = seasons

    def _offer_kinds(self):
        field = self.fields["kind"]
        field.choices = kinds.choices()
        field.initial = self.game.name
        if len(field.choices) == 1:
            field.widget = forms.HiddenInput()
        seats = self.fields["seats_count"]
        seats.choices = [(n, str(n)) for n in self.game.players]
        seats.initial = min(max(seats.initial, self.game.players[0]), self.game.players[-1])

    def _add_options_fields(self):
        # The game's options come right after the number of players.
        fields = list(self.fields.items())
        at = [name for name, _field in fields].index("seats_count") + 1
        own = [(n, copy.deepcopy(f)) for n, f in self.game.options_form.base_fields.items()]
        self.fields = dict(fields[:at] + own + fields[at:])
        # The lobby page marks these fields with the choice they belong to (lobby.html).
        for name, when in self._shown_when().items():
            self.fields[name].shown_when = when

    def _shown_when(self) -> dict:
        """{field: (other field, value)}: fields of the game's options that apply only when
        the other field has that value (e.g. the threshold, when the game ends at one)."""
        return getattr(self.game.options_form, "shown_when", {})

    def clean(self):
        cleaned = super().clean()
        # A field that does not apply to the choices made refuses nothing: its value is
        # not used (hidden on the page, it could not even be corrected there).
        for name, (other, value) in self._shown_when().items():
            if cleaned.get(other) != value:
                self._errors.pop(name, None)
                cleaned.pop(name, None)
        return cleaned

    def clean_kind(self):
        # No game named (a form of before there were several): the default one.
        return self.cleaned_data["kind"] or kinds.DEFAULT

    def options(self) -> dict:
        return self.game.options_form.options(self.cleaned_data)


def _chosen_kind(data) -> kinds.Kind:
    """The game whose options the form shows: the one posted, else the default (an unknown
    name fails in clean_kind, and the default's fields keep the form readable)."""
    name = (data or {}).get("kind") or kinds.DEFAULT
    try:
        return kinds.get(name)
    except KeyError:
        return kinds.get(kinds.DEFAULT)


def _seasons_offered(user, kind: kinds.Kind):
    """The seasons a new table of `user` may count in, as the league app answers
    (games.signals.seasons_offered); None when no app offers any."""
    for _receiver, seasons in signals.seasons_offered.send(sender=TableForm, user=user, kind=kind):
        if seasons is not None:
            return seasons
    return None
