import asyncio

from django.core.management.base import BaseCommand

from games import clock


class Command(BaseCommand):
    help = "Run the deadline clock on its own (daphne processes also run one each)."

    def handle(self, *args, **options):
        asyncio.run(clock.run())
