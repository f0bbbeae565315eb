"""Batched simulation: many hands of the games of sets stepped in lockstep with numpy.

* :class:`~cherki.vector.sets.SetsVector`: the simulator (Balik Satu, Balik Lima Belas,
  Gonggong, Chaqui, Chot; Tantanan and Cekèn too), exact against the reference engine;
* :class:`~cherki.vector.env.VectorEnv`: its Gymnasium-style vector API;
* :mod:`~cherki.vector.policies`: random and heuristic policies acting on a whole batch.
"""

from cherki.vector.sets import GAMES, Finished, SetsVector

__all__ = ["GAMES", "Finished", "SetsVector"]
