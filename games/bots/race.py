"""The race the experts run over their candidates: the worlds come in stages, and after
each the candidates clearly worse than the best, in paired differences over the same
worlds, are dropped, so an easy decision costs a fraction of a close one."""

import numpy as np


def survivors(alive: list[int], scores, z: float, *, lower_is_better: bool = False) -> list[int]:
    """The candidates of `alive` (indexes) not worse than the best by more than `z`
    standard errors of their paired difference; `scores[i]` holds candidate i's score in
    each world weighed so far, the same worlds for all. The best stays, the first of equals."""
    table = np.array([scores[index] for index in alive], dtype=float)
    if lower_is_better:
        table = -table
    best = int(table.mean(axis=1).argmax())
    loss = table[best][None, :] - table
    spread = loss.std(axis=1, ddof=1) / np.sqrt(table.shape[1])
    clearly = loss.mean(axis=1) > z * np.maximum(spread, 1e-9)
    return [index for row, index in enumerate(alive) if row == best or not clearly[row]]
