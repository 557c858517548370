"""Background work of the games, through Django's tasks API (settings.TASKS; a worker
runs them, leagues/tasks.py says how): the mails of turn-based tables."""

from datetime import datetime

from django_tasks import task

from games import turn_mails


@task()
def mail_decision(seat_id: int, since: str) -> int:
    """Mail a seat's player that a decision waits for her since `since` (ISO 8601)."""
    return turn_mails.send_decision_mail(seat_id=seat_id, since=datetime.fromisoformat(since))


@task()
def mail_digests() -> int:
    """The daily digest of the tables waiting for each player who chose it."""
    return turn_mails.send_digests()


@task()
def review_game(game_id: int) -> int:
    """The post-game review of a finished game (games.reviews): how many seats it reviewed.
    Run again, it computes the same review and replaces the stored one."""
    from games import reviews
    from games.models import Game

    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or not reviews.reviewable(game):
        return 0
    return len(reviews.review_game(game))
