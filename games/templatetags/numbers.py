"""Numbers as every game's templates word them.

`abs`: a count's size without its sign, for the plural of a number that may be negative
(a game counted in points): French takes the singular for -1 and the plural for -5, as for 1 and 5,
so `{% blocktranslate count n=total|abs with total=total %}{{ total }} point{% plural %}
{{ total }} points{% endblocktranslate %}` reads "-5 points", not "-5 point".
"""

from django import template

register = template.Library()


@register.filter(name="abs")
def absolute(number):
    """|number|; what is not a number is left as it is."""
    try:
        return abs(number)
    except TypeError:
        return number
