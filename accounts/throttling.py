"""Brute force on accounts: the login lockout page and password-reset mail counts.

Login lockout itself is django-axes (settings AXES_*): this module only draws its page.
Reset mails are counted in Django's cache, shared by every process when it is Redis.
"""

import hashlib

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.shortcuts import render
from django.utils.translation import ngettext
from ipware import get_client_ip

RESET_WINDOW_SECONDS = 3600


def lockout_page(request, original_response=None, credentials=None):
    """The login page again, with why it refuses and for how long (HTTP 429).

    django-axes calls this for a locked-out login (AXES_LOCKOUT_CALLABLE). Its async
    middleware passes the credentials where the response should be, so neither is used:
    the username to show again is read from the posted form.
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    lockout = ngettext(
        "Too many failed logins for this account from your connection. Try again in "
        "%(minutes)s minute, reset your password, or ask a club admin to unlock it.",
        "Too many failed logins for this account from your connection. Try again in "
        "%(minutes)s minutes, reset your password, or ask a club admin to unlock it.",
        minutes,
    ) % {"minutes": minutes}
    return render(
        request, "registration/login.html", {"form": form, "lockout": lockout}, status=429
    )


def client_address(request) -> str:
    """The client's address, read as django-axes reads it for lockouts: django-ipware
    with the settings that TRUSTED_PROXIES sets (config/settings.py), so a forged
    X-Forwarded-For moves neither count. Empty when the request carries no address."""
    address, _routable = get_client_ip(
        request,
        proxy_order=settings.AXES_IPWARE_PROXY_ORDER,
        proxy_count=settings.AXES_IPWARE_PROXY_COUNT,
        request_header_order=settings.AXES_IPWARE_META_PRECEDENCE_ORDER,
    )
    return address or ""


def _count(kind: str, who: str) -> int:
    """How many times `who` asked within the window, this request included."""
    key = f"reset-mail:{kind}:{hashlib.sha256(who.encode()).hexdigest()}"
    # add() starts the window only if none is running; incr() is atomic on every backend.
    cache.add(key, 0, timeout=RESET_WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:  # the window ended between add() and incr()
        cache.add(key, 1, timeout=RESET_WINDOW_SECONDS)
        return 1


def reset_requests_exceeded(request) -> bool:
    """Counts this request against its client address; True beyond the hourly limit."""
    return _count("ip", client_address(request)) > settings.SIXCLUB_RESET_REQUESTS_PER_IP


def reset_mails_exceeded(email: str) -> bool:
    """Counts a mail to `email` (as Django matches it, case aside); True beyond the limit."""
    address = email.strip().lower()
    return _count("to", address) > settings.SIXCLUB_RESET_MAILS_PER_ADDRESS
