from django.core.management.base import BaseCommand

from games import turn_mails


class Command(BaseCommand):
    help = (
        "Mail now the daily digest of turn-based tables waiting for each player who chose it "
        "(the clock queues it every day at SIXCLUB_DIGEST_HOUR)."
    )

    def handle(self, *args, **options):
        sent = turn_mails.send_digests()
        self.stdout.write(f"{sent} digest mail(s) sent.")
