"""The cards of 6 qui surprend (RULES §2.1): the 104 number cards of 6 qui prend ! and the
28 specials, and the sizes of a game."""

from games.nimmt.engine.cards import HEADS, HIGHEST, LOWEST, heads

MIN_PLAYERS = 2  # RULES 2.1
MAX_PLAYERS = 8
HAND_SIZE = 12  # RULES 2.1: twelve number cards each, so a round lasts twelve turns
ROUNDS = 2  # RULES 2.1: the game ends after round 2
ROW_COUNT = 4  # RULES 1.2; 5e série adds a fifth (2.3)
ROW_LIMIT = 5  # RULES 1.4: the 6th card takes the five before it
STOP_LIMIT = 2  # RULES 2.3: at most 2 Stops lie on the table
SPECIALS_DEALT = 3  # RULES 2.1: three specials each, and three more in round 2

NUMBERS = tuple(range(LOWEST, HIGHEST + 1))

# The record's names of the seven specials (RULES §4.2).
STOP = "stop"
GLISSER = "glisser"
INSERER = "inserer"
REMPLACER = "remplacer"
NEGATIF = "negatif_positif"
CINQUIEME = "5e_serie"
SEPT = "7_qui_surprend"
KINDS = (STOP, GLISSER, INSERER, REMPLACER, NEGATIF, CINQUIEME, SEPT)

# RULES 2.1: four of each kind.
SPECIALS = tuple(kind for kind in KINDS for _ in range(4))


def row_heads(row):
    """Heads of the number cards of a row or pile (specials count no heads, RULES 2.5)."""
    return sum(HEADS[card] for card in row)


__all__ = [
    "CINQUIEME",
    "GLISSER",
    "HAND_SIZE",
    "HEADS",
    "INSERER",
    "KINDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NEGATIF",
    "NUMBERS",
    "REMPLACER",
    "ROUNDS",
    "ROW_COUNT",
    "ROW_LIMIT",
    "SEPT",
    "SPECIALS",
    "SPECIALS_DEALT",
    "STOP",
    "STOP_LIMIT",
    "heads",
    "row_heads",
]
