"""Site ratings (leagues.ratings): every finished game of two humans or more, friendly or
league, moves its players' rating in that game; bots never do."""

from games import engine, services
from games.models import Game
from leagues.models import RatedGame, SiteRating


def play_out(table):
    """Play a started game to its end: each seat plays what the time-out would."""
    game_engine = engine.get(table.kind)
    for _ in range(2000):
        state = game_engine.load(Game.objects.get(table=table).state)
        if game_engine.is_over(state):
            return Game.objects.get(table=table)
        seat = min(game_engine.to_act(state))
        user = table.seats.get(position=seat).user
        services.game_decide(
            table_id=table.pk, user=user, decision=game_engine.fallback(state, seat)
        )
    raise AssertionError("the game did not end")


def friendly(creator, *others, bots=0, kind="nimmt", options=None):
    table = services.table_create(
        user=creator,
        kind=kind,
        seats_count=1 + len(others) + bots,
        options=options or {"end": "rounds", "rounds": 1},
        deal_seed=7,
    )
    for other in others:
        services.seat_join(table_id=table.pk, user=other)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, user=creator, bot="random")
    services.table_start(table_id=table.pk, user=creator)
    return table


def test_a_friendly_game_of_two_humans_and_a_bot_rates_the_humans_only(alice, bob):
    game = play_out(friendly(alice, bob, bots=1))
    lines = {line.user: line for line in RatedGame.objects.filter(game=game)}
    assert set(lines) == {alice, bob}
    totals = game.result["totals"]
    for user, line in lines.items():
        assert line.score == totals[line.seat] and line.players == 3 and line.kind == "nimmt"
        rating = SiteRating.objects.get(user=user, kind="nimmt")
        assert (rating.mu, rating.sigma, rating.games) == (line.mu, line.sigma, 1)
    # Finishing twice rates once.
    from leagues import ratings

    ratings.game_rated(game=game)
    assert RatedGame.objects.filter(game=game).count() == 2
    assert SiteRating.objects.get(user=alice, kind="nimmt").games == 1


def test_one_human_against_bots_rates_nobody(alice):
    play_out(friendly(alice, bots=2))
    assert not RatedGame.objects.exists() and not SiteRating.objects.exists()
