"""A player's page (/players/<username>/): their games and their leagues. It lives in
leagues, the app that knows both (accounts, below games and leagues, imports neither)."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, render

from games.selectors import player_games
from leagues.selectors import player_profile, player_rating_changes

User = get_user_model()


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    games = player_games(player, viewer=request.user)
    # Each league game's move of the player's rating in its game.
    changes = player_rating_changes(player=player)
    for game in games:
        game["rating_change"] = changes.get(game["table"].pk)
    context = {"player": player, "games": games}
    context.update(player_profile(player=player, viewer=request.user))
    return render(request, "accounts/profile.html", context)
