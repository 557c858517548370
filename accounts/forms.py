from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email", "display_name")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = (
            "display_name",
            "preferred_language",
            "notify_seated",
            "notify_join_requests",
            "notify_sheets",
            "turn_mails",
        )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form posted without it (an older page) keeps the player's choice.
        self.fields["turn_mails"].required = False

    def clean_turn_mails(self):
        return self.cleaned_data["turn_mails"] or self.instance.turn_mails
