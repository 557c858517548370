"""English as our clubs write it: day first (en-GB), 24-hour clock, weeks from Monday.

Django's own "en" is American ("12/05/2026" is 5 December); the names of the formats the
templates use (DATE_FORMAT, SHORT_DATE_FORMAT...) stay, only their order changes. What is
not set here (numbers) falls back to Django's "en".
"""

DATE_FORMAT = "j M Y"  # 5 Dec 2026
SHORT_DATE_FORMAT = "d/m/Y"  # 05/12/2026
DATETIME_FORMAT = "j M Y, H:i"  # 5 Dec 2026, 20:30
SHORT_DATETIME_FORMAT = "d/m/Y H:i"  # 05/12/2026 20:30
TIME_FORMAT = "H:i"  # 20:30
YEAR_MONTH_FORMAT = "F Y"  # December 2026
MONTH_DAY_FORMAT = "j F"  # 5 December
FIRST_DAY_OF_WEEK = 1  # Monday

# What a typed date means (the admin's date fields): ISO first, as the admin's widgets
# write it, then day first. Never month first: "05/12/2026" is 5 December here.
DATE_INPUT_FORMATS = [
    "%Y-%m-%d",  # 2026-12-05
    "%d/%m/%Y",  # 05/12/2026
    "%d/%m/%y",  # 05/12/26
]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M:%S.%f",
    "%d/%m/%Y %H:%M",
    "%d/%m/%y %H:%M:%S",
    "%d/%m/%y %H:%M",
]
