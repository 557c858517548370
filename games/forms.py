import copy

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import kinds, signals
from games.models import TIME_LIMIT_CHOICES

# The fields the page draws before the game's own: the table's name and its game.
LEAD_FIELDS = ("name", "kind")


class TableForm(forms.Form):
    """A new table: the game, what every game has (seats, clock, privacy, league), and the
    game's own options (its kind's OptionsForm fields, games/kinds.py).

    The fields that depend on the game (`game_fields`: the number of players, its
    options, the league seasons it counts in) are those of the game the form is made for
    (`kind=`), else of the game posted, else of the default one. The page draws them in
    one part that it swaps when another game is chosen (lobby.html's `game_options`), and
    a game's fields are the only ones it requires.
    """

    name = forms.CharField(label=_("Name"), max_length=60, required=False)
    kind = forms.ChoiceField(
        label=pgettext_lazy("kind of game", "Game"), required=False, choices=()
    )
    seats_count = forms.TypedChoiceField(label=_("Players"), coerce=int, initial=4, choices=())
    time_limit = forms.TypedChoiceField(
        # 30 s by default (with a time bank); "no limit" stays a choice, safe since an
        # away player is played for after a short wait (RULES §1.8).
        label=_("Time per decision"),
        coerce=int,
        choices=TIME_LIMIT_CHOICES,
        initial=30,
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

    def __init__(self, data=None, *args, user=None, kind: str | None = None, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.user = user
        self.game = _chosen_kind(kind or (data or {}).get("kind"))
        self._offer_kinds()
        self._add_options_fields()
        seasons = _seasons_offered(user, self.game) if user is not None else None
        if seasons is None or not seasons.exists():
            del self.fields["season"]
        else:
            self.fields["season"].queryset = seasons
        self._game_names = [
            "seats_count",
            *self.game.options_form.base_fields,
            *(["season"] if "season" in self.fields else []),
        ]

    def _offer_kinds(self):
        field = self.fields["kind"]
        field.choices = kinds.choices()
        field.initial = self.game.name
        if len(field.choices) == 1:
            field.widget = forms.HiddenInput()
        else:
            # Choosing a game fetches its fields (views.lobby_options) in place of the
            # shown ones. The browser must not restore a choice on reload that the fields
            # drawn under it do not match.
            field.widget.attrs.update(
                {
                    "hx-get": reverse("lobby_options"),
                    "hx-target": "#game-options",
                    "hx-swap": "outerHTML",
                    "hx-sync": "this:replace",
                    "autocomplete": "off",
                }
            )
        seats = self.fields["seats_count"]
        seats.choices = [(n, str(n)) for n in self.game.players]
        seats.initial = min(max(seats.initial, self.game.players[0]), self.game.players[-1])

    def _add_options_fields(self):
        # The game's options come right after the number of players, and the seasons a
        # table of this game may count in right after them.
        fields = list(self.fields.items())
        at = [name for name, _field in fields].index("seats_count") + 1
        own = [(n, copy.deepcopy(f)) for n, f in self.game.options_form.base_fields.items()]
        season = [(name, field) for name, field in fields if name == "season"]
        rest = [(name, field) for name, field in fields[at:] if name != "season"]
        self.fields = dict(fields[:at] + own + season + rest)
        # The lobby page marks these fields with the choice they belong to (lobby.html).
        for name, when in self._shown_when().items():
            self.fields[name].shown_when = when

    def _shown_when(self) -> dict:
        """{field: (other field, value)}: fields of the game's options that apply only when
        the other field has that value (e.g. the threshold, when the game ends at one)."""
        return getattr(self.game.options_form, "shown_when", {})

    @property
    def lead_fields(self) -> list:
        """The visible fields above the game's: the name, the game."""
        return [self[name] for name in LEAD_FIELDS if not self[name].is_hidden]

    @property
    def game_fields(self) -> list:
        """The fields of the chosen game: players, its options, the seasons it counts in."""
        return [self[name] for name in self._game_names]

    @property
    def table_fields(self) -> list:
        """The visible fields below the game's, which every game has (clock, privacy...)."""
        shown_above = {*LEAD_FIELDS, *self._game_names}
        return [field for field in self.visible_fields() if field.name not in shown_above]

    @property
    def fields_to_correct(self) -> list:
        """The visible fields a refused form asks to correct (each says why, next to it)."""
        return [field for field in self.visible_fields() if field.errors]

    def changes_game(self) -> bool:
        """Whether the posted form asks for another game's fields rather than a table:
        its "change game" button (a page without JavaScript), or the fields of one game
        posted with another chosen (the page had not swapped them yet)."""
        if not self.is_bound or self.data.get("kind") not in dict(kinds.choices()):
            return False
        shown = self.data.get("options_for")
        return "change_game" in self.data or (bool(shown) and shown != self.game.name)

    def for_chosen_game(self) -> "TableForm":
        """A new unbound form for the game posted, keeping what the user wrote in the
        fields every game has; the game's own fields come with their defaults."""
        kept = {field.name: field.data for field in [*self.lead_fields, *self.table_fields]}
        kept.pop("kind", None)
        form = TableForm(user=self.user, kind=self.game.name, initial=kept)
        # Without JavaScript the page loads again at its top: bring the new fields to view.
        form.fields["seats_count"].widget.attrs["autofocus"] = True
        return form

    def clean(self):
        cleaned = super().clean()
        # A field that does not apply to the choices made refuses nothing: its value is
        # not used (hidden on the page, it could not even be corrected there).
        for name, (other, value) in self._shown_when().items():
            if cleaned.get(other) != value:
                self._errors.pop(name, None)
                cleaned.pop(name, None)
        players = cleaned.get("seats_count")
        if players is not None:
            try:
                self.game.options_form.check(cleaned, players)
            except forms.ValidationError as error:
                self.add_error(None, error)
        return cleaned

    def clean_kind(self):
        # No game named (a form of before there were several): the default one.
        return self.cleaned_data["kind"] or kinds.default()

    def options(self) -> dict:
        return self.game.options_form.options(self.cleaned_data)


def _chosen_kind(name) -> kinds.Kind:
    """The game whose options the form shows: the one named, else the default (an unknown
    name fails in clean_kind, and the default's fields keep the form readable)."""
    try:
        return kinds.get(name or kinds.default())
    except KeyError:
        return kinds.get(kinds.default())


def _seasons_offered(user, kind: kinds.Kind):
    """The seasons a new table of `user` may count in, as the league app answers
    (games.signals.seasons_offered); None when no app offers any."""
    for _receiver, seasons in signals.seasons_offered.send(sender=TableForm, user=user, kind=kind):
        if seasons is not None:
            return seasons
    return None
