from django.utils import translation


class PreferredLanguageMiddleware:
    """A signed-in player's chosen language beats the browser's (LocaleMiddleware ran first).

    An explicit switch in this browser (the language cookie) still wins, so the language
    switch works for everyone; the switch view stores the choice on the player as well.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings

        user = getattr(request, "user", None)
        chosen = getattr(user, "preferred_language", "") if user and user.is_authenticated else ""
        if chosen and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)
