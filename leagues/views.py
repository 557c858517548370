from django.shortcuts import render


def league_list(request):
    return render(request, "leagues/league_list.html")
