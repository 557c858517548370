"""6 qui prend ! as the site plays it: its lobby options, summary, paper sheet,
league scoring and replay, registered by its app (games.nimmt.apps)."""

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import paper
from games.kinds import Kind, OptionsForm
from games.nimmt import engine as nimmt_engine
from games.nimmt import replay
from games.nimmt.bots import BOT_CHOICES
from games.nimmt.bots import BOTS as NIMMT_BOTS
from games.nimmt.engine.options import DEFAULTS as NIMMT_DEFAULTS
from games.nimmt.engine.options import MAX_PLAYERS, MIN_PLAYERS


class NimmtOptions(OptionsForm):
    """Every option of RULES §1.5–1.8."""

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
    # A field that applies only for one value of another: the lobby shows it only then
    # (static/js/lobby.js), and a value in it refuses nothing otherwise (TableForm.clean).
    shown_when = {"threshold": ("end", "threshold"), "rounds": ("end", "rounds")}
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

    @classmethod
    def options(cls, data: dict) -> dict:
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


def column_totals(sheet) -> tuple[int, ...]:
    """Each seat's points over the rounds: heads taken, for 6 qui prend !."""
    return tuple(sum(column) for column in zip(*sheet, strict=True))


def most_heads(cards_in_play: int) -> int:
    """The most heads a round can hold: those of its heaviest cards (RULES §1.1)."""
    return sum(sorted(nimmt_engine.HEADS, reverse=True)[:cards_in_play])


def _nimmt_sheet(lines, players):
    # RULES §1.2: 10 cards a player and 4 rows.
    return paper.heads_sheet(lines, players, most=most_heads(10 * players + 4))


def _nimmt_summary(options: dict) -> str:
    """How the game ends ("to 66 heads", "3 rounds"), then the variants it plays."""
    if options.get("end") == "rounds":
        rounds = options["rounds"]
        parts = [ngettext("%(n)s round", "%(n)s rounds", abs(rounds)) % {"n": rounds}]
    else:
        threshold = options.get("threshold", NIMMT_DEFAULTS["threshold"])
        parts = [ngettext("to %(n)s head", "to %(n)s heads", abs(threshold)) % {"n": threshold}]
    if options.get("card_limit"):
        parts.append(gettext("tactical"))
    if options.get("deal") == "draft":
        parts.append(gettext("draft"))
    if not options.get("live_scores", True):
        parts.append(gettext("scores at round end"))
    return ", ".join(parts)


NIMMT = Kind(
    name=nimmt_engine.KIND,
    label=_("6 qui prend !"),
    engine=nimmt_engine,
    options_form=NimmtOptions,
    players=range(MIN_PLAYERS, MAX_PLAYERS + 1),
    summary=_nimmt_summary,
    bots=NIMMT_BOTS,
    bot_choices=BOT_CHOICES,
    replay_context=replay.nimmt_replay_context,
    league_totals=column_totals,
    event_options=lambda event: event.table_options(),
    paper_sheet=_nimmt_sheet,
)
