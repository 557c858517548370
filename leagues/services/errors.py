"""The one error every league write raises: a code for the client, a message for people."""


class LeagueError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
