"""The winner's banner draws its trophy as an SVG of the site's own, not an emoji that
shows as a box without an emoji font (issue 31, item 6)."""

import pytest

from games import engine, services
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["nimmt", "six"])  # the shared banner, and Six's own
def test_the_winners_banner_draws_an_svg_trophy(alice, bob, alice_client, kind):
    table = services.table_create(user=alice, kind=kind, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    rules = engine.get(kind)
    for _ in range(500):
        game = Game.objects.get(table=table)
        state = rules.load(game.state)
        if rules.is_over(state):
            break
        seat = rules.to_act(state)[0]
        user = alice if seat == 0 else bob
        services.game_decide(table_id=table.pk, user=user, decision=rules.fallback(state, seat))
    page = alice_client.get(table.get_absolute_url()).content.decode()
    banner = page[page.index('id="winner-banner"') :].split("</p>", 1)[0]
    assert '<svg class="trophy"' in banner
    assert "🏆" not in page
