"""Tables are in the Django admin through leagues/admin/tables.py (TableAdmin): a league's admins
see their leagues' tables there, and games does not depend on leagues. Games, their score
sheets and picked-up piles are in the league admin too.
"""
