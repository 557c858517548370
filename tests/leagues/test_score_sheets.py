"""Games played with real cards count too; corrections and voids keep their history
(issue 24: "Games played with real cards count too", "Corrections and removals")."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import paper
from games.models import Game, RoundScore, Table
from games.six.kind import hand_points_sheet
from leagues import selectors
from leagues import services as league_services
from leagues.models import Evening, LeagueGame, ResultChange, ScoreSheet, Season, Standing
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 5)


def as_user(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def enter(season, user, players, lines, **kwargs):
    return league_services.sheet_enter(
        season=season, user=user, players=players, lines=lines, played_on=TODAY, **kwargs
    )


def test_a_sheet_counts_once_every_player_confirms(season, alice, bob, carol):
    sheet = enter(season, alice, [alice, bob, carol], [[3, 10, 0], [5, 2, 9]])
    assert sheet.status == ScoreSheet.Status.PENDING
    assert not Standing.objects.filter(season=season).exists()  # not yet
    league_services.sheet_answer(sheet=sheet, user=bob, confirmed=True)
    assert not LeagueGame.objects.exists()
    league_services.sheet_answer(sheet=sheet, user=carol, confirmed=True)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.CONFIRMED
    heads = dict(Standing.objects.values_list("user__username", "heads"))
    assert heads == {"alice": 8, "bob": 12, "carol": 9}
    game = Game.objects.get(table=sheet.table)
    assert game.result["winners"] == [0] and sheet.table.paper
    assert RoundScore.objects.filter(game=game).count() == 6


def test_a_disputed_sheet_waits_for_the_admin(season, alice, bob, carol):
    # Bob enters it (members may, in this season); Carol disputes.
    sheet = enter(season, bob, [alice, bob, carol], [[3, 10, 0]])
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.sheet_answer(sheet=sheet, user=carol, confirmed=False)
    assert refused.value.code == "no_reason"
    league_services.sheet_answer(sheet=sheet, user=carol, confirmed=False, reason="I took 4")
    league_services.sheet_answer(sheet=sheet, user=alice, confirmed=True)
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.DISPUTED and not LeagueGame.objects.exists()
    # The admin writes it again: everyone answers anew; then confirms for all.
    league_services.sheet_fix(sheet=sheet, user=alice, lines=[[3, 10, 4]])
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.PENDING and not sheet.answers.exists()
    league_services.sheet_confirm_all(sheet=sheet, user=alice)
    assert Standing.objects.get(season=season, user=carol).heads == 4


def test_a_sheet_is_refused_with_a_clear_reason_and_changes_nothing(
    season, alice, bob, make_player
):
    stranger = make_player("zoe", display_name="Zoe")
    cases = [
        ([alice, bob], [[3]], "bad_sheet"),  # a score missing
        ([alice, bob], [[3, 200]], "bad_sheet"),  # more heads than a round holds
        ([alice, bob], [[-1, 2]], "bad_sheet"),
        ([alice, alice], [[1, 2]], "twice"),
        ([alice, stranger], [[1, 2]], "not_member"),
        ([alice], [[1]], "bad_count"),
    ]
    for players, lines, code in cases:
        with pytest.raises(league_services.LeagueError) as refused:
            enter(season, alice, players, lines)
        assert refused.value.code == code, (players, lines)
    assert not ScoreSheet.objects.exists() and not Table.objects.exists()


def test_who_may_enter_a_sheet(season, alice, bob, carol, dave):
    # Dave is a member but did not play: only a league admin enters another's game.
    with pytest.raises(league_services.LeagueError) as refused:
        enter(season, dave, [bob, carol], [[1, 2]])
    assert refused.value.code == "not_allowed"
    Season.objects.filter(pk=season.pk).update(players_enter_sheets=False)
    season.refresh_from_db()
    with pytest.raises(league_services.LeagueError):
        enter(season, bob, [bob, carol], [[1, 2]])
    assert enter(season, alice, [bob, carol], [[1, 2]]).status == ScoreSheet.Status.PENDING


def test_six_sheets_are_points_per_hand(club, alice, bob, carol):
    """RULES §3.3 on paper: one winner with 5 plus the others' cards, the others minus."""
    six = Season.objects.create(
        league=club, name="Six", kind="six", starts_on=TODAY - datetime.timedelta(days=9)
    )
    with pytest.raises(league_services.LeagueError):
        enter(six, alice, [alice, bob, carol], [[9, -3, -2]])  # 5 + 5 is 10
    sheet = enter(six, alice, [alice, bob, carol], [[10, -3, -2], [-1, 8, -2]])
    league_services.sheet_confirm_all(sheet=sheet, user=alice)
    points = dict(Standing.objects.filter(season=six).values_list("user__username", "heads"))
    assert points["alice"] == 10 - 1


def test_the_sheet_checks_every_game_kind():
    with pytest.raises(paper.SheetError):
        hand_points_sheet([[5, 0]], 2, most_left=24)  # nobody went out with cards left
    rows, result = hand_points_sheet([[-4, 9]], 2, most_left=24)
    assert rows == [[4, 0]] and result["winners"] == [1]


def test_a_seated_table_switched_to_paper_gets_its_sheet(season, alice, bob, carol, dave):
    evening = Evening.objects.create(season=season, date=TODAY, table_size=4, game_rounds=1)
    evening.players.set([alice, bob, carol, dave])
    (table,) = league_services.seating_generate(event=evening, seed=1)
    league_services.table_to_paper(event=evening, slot_id=table.evening_slot.pk)
    players = [seat.user for seat in table.seats.order_by("position")]
    sheet = enter(season, alice, players, [[1, 2, 3, 4]], table=Table.objects.get(pk=table.pk))
    league_services.sheet_confirm_all(sheet=sheet, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.evening_slot.evening == evening
    rounds = selectors.event_rounds(evening)
    assert [p["heads"] for p in rounds[0][1][0]["players"]] == [1, 2, 3, 4]


def test_a_correction_changes_the_standings_and_keeps_its_history(season, alice, bob, carol):
    game = finished_game(season, [alice, bob], [[3, 10]])
    league_services.result_correct(game=game, lines=[[12, 10]], reason="Swapped", user=carol)
    league_services.season_recompute(season=season)
    heads = dict(Standing.objects.values_list("user__username", "heads"))
    assert heads == {"alice": 12, "bob": 10}
    change = ResultChange.objects.get()
    assert (change.before, change.after, change.reason) == ([[3, 10]], [[12, 10]], "Swapped")
    assert change.changed_by == carol
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.result_correct(game=game, lines=[[1, 1]], reason=" ", user=carol)
    assert refused.value.code == "no_reason"


def test_a_void_game_counts_in_nothing_and_stays_void_after_a_recompute(season, alice, bob):
    game = finished_game(season, [alice, bob], [[3, 10]])
    finished_game(season, [alice, bob], [[8, 1]])
    league_services.result_void(game=game, reason="Wrong table", user=alice)
    league_services.season_recompute(season=season)
    league_services.season_recompute(season=season)
    assert Standing.objects.get(season=season, user=alice).games == 1
    assert ResultChange.objects.get().action == ResultChange.Action.VOID


def test_a_player_answers_from_the_link_on_their_profile(season, alice, bob):
    sheet = enter(season, alice, [alice, bob], [[3, 10]])
    bob_client = as_user(bob)
    profile = bob_client.get(reverse("profile", args=["bob"])).content.decode()
    assert reverse("league_sheet", args=[sheet.pk]) in profile
    # Others do not see Bob's waiting sheets.
    assert (
        reverse("league_sheet", args=[sheet.pk])
        not in as_user(alice).get(reverse("profile", args=["bob"])).content.decode()
    )
    page = bob_client.get(reverse("league_sheet", args=[sheet.pk])).content.decode()
    assert "This sheet is right" in page
    bob_client.post(reverse("league_sheet_answer", args=[sheet.pk]), {"answer": "confirm"})
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.CONFIRMED


def test_the_sheet_page_enters_a_game_and_refuses_a_bad_one(season, alice, bob, carol):
    client = as_user(bob)
    url = reverse("league_sheet_new", args=["club"]) + "?players=2&rounds=2"
    form = {
        "season": season.pk,
        "played_on": "2026-12-05",
        "player_0": bob.pk,
        "player_1": carol.pk,
        "line_0_0": 3,
        "line_0_1": 5,
        "line_1_0": 1,
    }
    refused = client.post(url, form)
    assert refused.status_code == 400 and not ScoreSheet.objects.exists()
    form["line_1_1"] = 400
    refused = client.post(url, form)
    assert refused.status_code == 400 and b"no more in all" in refused.content
    form["line_1_1"] = 2
    response = client.post(url, form)
    sheet = ScoreSheet.objects.get()
    assert response.status_code == 302 and sheet.lines == [[3, 5], [1, 2]]
    assert sheet.answers.get().user == bob


def test_the_admin_corrects_a_result_with_a_reason(season, alice, bob):
    alice.is_staff = True
    alice.save()
    client = as_user(alice)
    game = finished_game(season, [alice, bob], [[3, 10]])
    entry = LeagueGame.objects.get(game=game)
    url = reverse("admin:leagues_leaguegame_correct", args=[entry.pk])
    assert b"3 10" in client.get(url).content
    refused = client.post(url, {"lines": "3 x", "reason": "typo"})
    assert refused.status_code == 200 and not ResultChange.objects.exists()
    client.post(url, {"lines": "13 10", "reason": "typo"})
    assert Standing.objects.get(season=season, user=alice).heads == 13
    page = client.get(reverse("admin:leagues_leaguegame_change", args=[entry.pk])).content
    assert b"typo" in page and b"Changes of this result" in page
    void = reverse("admin:leagues_leaguegame_void", args=[entry.pk])
    client.post(void, {"reason": "played twice"})
    assert not Standing.objects.filter(season=season, games__gt=0).exists()
    assert timezone.now()


def test_a_table_already_playing_switches_to_paper(season, alice, bob, carol, dave):
    from games import engine, services

    evening = Evening.objects.create(season=season, date=TODAY, table_size=4, game_rounds=1)
    evening.players.set([alice, bob, carol, dave])
    (table,) = league_services.seating_generate(event=evening, seed=1)
    league_services.night_start(event=evening, slot_ids=[table.evening_slot.pk])
    league_services.table_to_paper(event=evening, slot_id=table.evening_slot.pk)
    # The game here stops: no decision is taken any more, and the clock has nothing to do.
    nimmt = engine.get("nimmt")
    state = nimmt.load(Game.objects.get(table=table).state)
    seat = min(nimmt.to_act(state))
    player = table.seats.get(position=seat).user
    with pytest.raises(services.ServiceError) as refused:
        services.game_decide(table_id=table.pk, user=player, decision=nimmt.fallback(state, seat))
    assert refused.value.code == "paper"
    assert Game.objects.get(table=table).deadline is None
    players = [s.user for s in table.seats.order_by("position")]
    sheet = enter(season, alice, players, [[5, 0, 2, 7]], table=Table.objects.get(pk=table.pk))
    league_services.sheet_confirm_all(sheet=sheet, user=alice)
    game = Game.objects.get(table=table)
    assert game.finished_at and game.result["totals"] == [5, 0, 2, 7]
    assert list(
        RoundScore.objects.filter(game=game).order_by("seat").values_list("heads", flat=True)
    ) == [5, 0, 2, 7]
    assert Standing.objects.get(season=season, user=players[1]).wins == 1
