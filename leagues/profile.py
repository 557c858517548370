"""A player's page (/players/<username>/): her games of each game, her site rating, her
leagues, and how she fares against another player (?vs=<username>). It lives in leagues,
the app that knows both games and ratings (accounts, below games and leagues, imports
neither)."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, render

from leagues.players import find_player, head_to_head, player_profile

User = get_user_model()


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    context = {"player": player, **player_profile(player=player, viewer=request.user)}
    name = request.GET.get("vs", "").strip()[:150]
    context["vs_name"] = name
    if name:
        other = find_player(name)
        context["vs"] = other if other != player else None
        if context["vs"] is not None:
            context["head_to_head"] = head_to_head(player=player, other=other, viewer=request.user)
    return render(request, "accounts/profile.html", context)
