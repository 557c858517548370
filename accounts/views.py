from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import throttling
from accounts.forms import ProfileForm, SignupForm


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.preferred_language = translation.get_language() or ""
        user.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to sixclub, %(name)s!") % {"name": user.shown_name})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile_edit(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile is saved."))
        response = redirect("profile", username=request.user.username)
        language = form.cleaned_data["preferred_language"]
        if language:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, samesite="Lax")
        else:
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
        return response
    return render(request, "accounts/profile_edit.html", {"form": form})


@require_POST
def set_language(request):
    """The language switch: remembered in a cookie, and on the player when signed in."""
    language = request.POST.get("language", "")
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    if language not in dict(settings.LANGUAGES):
        messages.error(request, _("Unknown language."))
        return response
    if request.user.is_authenticated:
        request.user.preferred_language = language
        request.user.save(update_fields=["preferred_language"])
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, with hourly limits per client address and per mailbox.

    Beyond the mailbox's limit the answer is the usual "if an account exists, a mail is on
    its way" without a mail, so it says nothing about the account nor about the limit.
    """

    def form_valid(self, form):
        if throttling.reset_requests_exceeded(self.request):
            form.add_error(
                None,
                _("Too many password reset requests from your connection. Try again in an hour."),
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        if throttling.reset_mails_exceeded(form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
