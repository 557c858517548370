"""A duplicate round deals every table the same cards. While any table of the deal is not
finished, nothing derived from another table of the deal (its cards, log, record, replay,
piles, scores, ranking, rating change, its part in standings, results, TV, profiles and
CSV) is shown to anyone but superusers; a table's own players see their own table as
usual (issue 29; games.selectors.shown_to)."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import engine, services
from games.models import Game, Table, TakenCard
from leagues import services as league_services
from leagues.models import League, Membership, Season, Tournament
from tests.games import ws

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")
CLOSED = "deal is still being played at another table"


@pytest.fixture(params=[1, 2], ids=["one-round game", "two-round game"])
def round_of_two(request, make_player):
    """A duplicate tournament's first round: two tables of two players dealt alike, the
    first one finished, the second one playing its first round; and the people who look
    at them."""
    league = League.objects.create(name="Club", slug="club")
    players = [
        make_player(name, display_name=name.title()) for name in ("ann", "ben", "cat", "dan")
    ]
    for user in players:
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    admin = make_player("lea")
    Membership.objects.create(league=league, user=admin, status=Membership.Status.ACTIVE)
    league.admins.add(admin)
    season = Season.objects.create(
        league=league, name="2026", starts_on=timezone.localdate() - datetime.timedelta(days=3)
    )
    cup = Tournament.objects.create(
        season=season,
        name="Cup",
        date=timezone.localdate(),
        rounds=1,
        game_rounds=request.param,
        table_size=2,
        duplicate=True,
    )
    cup.players.set(players)
    finished, playing = league_services.seating_generate(event=cup, seed=7)
    assert finished.deal_seed and finished.deal_seed == playing.deal_seed
    for table in (finished, playing):
        services.table_start(table_id=table.pk, user=admin)
    play_to_the_end(finished)
    assert Table.objects.get(pk=playing.pk).status == Table.Status.PLAYING
    return {
        "cup": cup,
        "finished": finished,
        "playing": playing,
        "seated_there": finished.seats.get(position=0).user,
        "seated_here": playing.seats.get(position=0).user,
        "spectator": make_player("spe"),
        "league_admin": admin,
        "staff": make_player("sta", is_staff=True),
        "superuser": make_player("sup", is_staff=True, is_superuser=True),
    }


def play_to_the_end(table):
    for _ in range(400):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state):
            return
        seat = min(nimmt.view(state, None)["to_act"])
        user = table.seats.get(position=seat).user
        services.game_decide(table_id=table.pk, user=user, decision=nimmt.fallback(state, seat))
    raise AssertionError("the game did not end")


def as_user(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


# --- every surface, as one question: does it show the finished table's game? ------------


def _finished_players(r) -> set[str]:
    return {seat.user.username for seat in r["finished"].seats.all()}


def table_page(client, r):
    return client.get(f"/tables/{r['finished'].pk}/").status_code == 200


def table_log(client, r):
    return client.get(f"/tables/{r['finished'].pk}/log/").status_code == 200


def record(client, r):
    return client.get(f"/tables/{r['finished'].pk}/record.json").status_code == 200


def replay(client, r):
    return client.get(f"/tables/{r['finished'].pk}/replay/").status_code == 200


def results(client, r):
    response = client.get(f"/leagues/club/tournaments/{r['cup'].pk}/results/")
    assert response.status_code == 200
    return any(t.lines for t in response.context["results"].tables if t.table == r["finished"])


def tournament(client, r):
    response = client.get(f"/leagues/club/tournaments/{r['cup'].pk}/")
    assert response.status_code == 200
    shown_heads = [
        player["heads"]
        for _number, tables in response.context["rounds"]
        for table in tables
        if table["table"] == r["finished"]
        for player in table["players"]
    ]
    return bool(response.context["rows"]) or any(h is not None for h in shown_heads)


def standings(client, r):
    response = client.get("/leagues/club/")
    return any(row.user.username in _finished_players(r) for row in response.context["rows"])


def standings_csv(client, r):
    text = client.get("/leagues/club/standings.csv").content.decode()
    return any(f",{name}," in text for name in _finished_players(r))


def tv(client, r):
    response = client.get(f"/leagues/club/tournaments/{r['cup'].pk}/tv/")
    assert response.status_code == 200
    tables = response.context["round"].tables
    totals = [p.total for t in tables if t.table.pk == r["finished"].pk for p in t.players]
    return any(total is not None for total in totals)


def profile(client, r):
    player = r["finished"].seats.get(position=1).user
    response = client.get(f"/players/{player.username}/")
    figures = response.context["game_figures"]
    listed = any(g.table_id == r["finished"].pk for f in figures for g in f["recent"])
    return listed or any(f["played"] for f in figures)


SURFACES = [
    table_page,
    table_log,
    record,
    replay,
    results,
    tournament,
    standings,
    standings_csv,
    tv,
    profile,
]
CLOSED_TO = ["seated_here", "spectator", "league_admin", "staff"]


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: s.__name__)
@pytest.mark.parametrize("who", CLOSED_TO)
def test_nothing_of_a_finished_table_shows_while_its_deal_is_played(round_of_two, who, surface):
    assert not surface(as_user(round_of_two[who]), round_of_two)


@pytest.mark.parametrize("surface", SURFACES, ids=lambda s: s.__name__)
@pytest.mark.parametrize("who", CLOSED_TO + ["seated_there"])
def test_everything_shows_once_every_table_of_the_deal_is_over(round_of_two, who, surface):
    play_to_the_end(round_of_two["playing"])
    assert surface(as_user(round_of_two[who]), round_of_two)


@pytest.mark.parametrize("surface", [table_page, table_log, record, replay])
def test_a_superuser_sees_the_finished_table_at_once(round_of_two, surface):
    assert surface(as_user(round_of_two["superuser"]), round_of_two)


def test_its_own_players_see_their_table_as_usual_but_not_the_hands(round_of_two):
    client = as_user(round_of_two["seated_there"])
    finished = round_of_two["finished"]
    assert table_page(client, round_of_two) and table_log(client, round_of_two)
    page = client.get(f"/tables/{finished.pk}/").content.decode()
    assert 'id="ranking"' in page and CLOSED in page
    assert "Picked-up piles" not in page
    assert f"/tables/{finished.pk}/record.json" not in page
    # The record and the replay hold every hand of the deal: closed to its players too.
    for url in (f"/tables/{finished.pk}/record.json", f"/tables/{finished.pk}/replay/"):
        response = client.get(url)
        assert response.status_code == 403 and CLOSED in response.content.decode()


def test_the_closed_table_says_why(round_of_two):
    response = as_user(round_of_two["spectator"]).get(f"/tables/{round_of_two['finished'].pk}/")
    assert response.status_code == 403 and CLOSED in response.content.decode()


def test_the_results_page_says_why_a_finished_table_shows_nothing_yet(round_of_two):
    r = round_of_two
    page = as_user(r["spectator"]).get(f"/leagues/club/tournaments/{r['cup'].pk}/results/")
    html = page.content.decode()
    assert "Its results show once every table of this deal has finished." in html
    play_to_the_end(r["playing"])
    html = as_user(r["spectator"]).get(f"/leagues/club/tournaments/{r['cup'].pk}/results/")
    assert "Its results show once" not in html.content.decode()


def test_the_last_table_of_the_deal_may_be_watched(round_of_two):
    """No other table plays the deal: watching it tells nobody anything."""
    playing = round_of_two["playing"]
    for who in ("seated_there", "spectator"):
        assert as_user(round_of_two[who]).get(f"/tables/{playing.pk}/").status_code == 200


def test_the_lobby_lists_no_table_of_a_deal_played_elsewhere(round_of_two):
    Table.objects.filter(pk=round_of_two["finished"].pk).update(status=Table.Status.PLAYING)
    lobby = as_user(round_of_two["spectator"]).get("/tables/").context
    # Both tables play the deal: neither may be watched by someone seated at neither.
    assert {t.pk for t in lobby["playing_tables"]} == set()


def test_the_profile_counts_no_card_of_a_deal_still_played(round_of_two):
    player = round_of_two["seated_there"]
    game = Game.objects.get(table=round_of_two["finished"])
    TakenCard.objects.filter(game=game).delete()
    TakenCard.objects.create(game=game, round=1, turn=1, seat=0, card=55, heads=7)
    client = as_user(round_of_two["spectator"])
    profile_url = f"/players/{player.username}/"
    assert all(f["cards_taken"] == [] for f in client.get(profile_url).context["game_figures"])
    play_to_the_end(round_of_two["playing"])
    taken = client.get(profile_url).context["game_figures"][0]["cards_taken"]
    assert taken == [{"card": 55, "heads": 7, "times": 1}]


def test_the_deal_enters_the_season_when_its_last_table_ends(round_of_two):
    from leagues.models import LeagueGame, PlayerRating

    assert not LeagueGame.objects.exists() and not PlayerRating.objects.exists()
    play_to_the_end(round_of_two["playing"])
    entered = list(LeagueGame.objects.order_by("pk").values_list("game__table", flat=True))
    assert entered == [round_of_two["finished"].pk, round_of_two["playing"].pk]
    assert PlayerRating.objects.count() == 4


def test_a_recompute_leaves_out_a_deal_still_played(round_of_two):
    from leagues.models import LeagueGame

    league_services.season_recompute(season=round_of_two["cup"].season)
    assert not LeagueGame.objects.exists()


def test_a_table_without_a_deal_seed_has_no_siblings(alice, django_assert_max_num_queries):
    from games import selectors

    table = services.table_create(user=alice, seats_count=2, options={})
    with django_assert_max_num_queries(0):
        assert selectors.deal_in_play_elsewhere(table) is False


def test_the_deal_question_is_one_query(round_of_two, django_assert_num_queries):
    from games import selectors

    with django_assert_num_queries(1):
        assert selectors.deal_in_play_elsewhere(round_of_two["finished"]) is True
    with django_assert_num_queries(1):
        assert selectors.deal_in_play_elsewhere(round_of_two["playing"]) is False


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["seated_here", "spectator"])
async def test_no_socket_opens_on_a_finished_table_of_a_deal_still_played(round_of_two, who):
    socket = await ws.connect(f"/ws/tables/{round_of_two['finished'].pk}/", round_of_two[who])
    if socket.connected:  # refused by a close code rather than at the handshake
        output = await socket.receive_output(timeout=3)
        assert output["type"] == "websocket.close", output
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_its_own_player_keeps_the_socket_of_her_table(round_of_two):
    socket = await ws.connect(
        f"/ws/tables/{round_of_two['finished'].pk}/", round_of_two["seated_there"]
    )
    assert socket.connected
    frame = await ws.receive(socket)
    assert 'id="live"' in frame
    await socket.disconnect()
