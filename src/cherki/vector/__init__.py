"""Batched simulation: many hands of the games of sets stepped in lockstep with numpy.

* :class:`~cherki.vector.sets.SetsVector`: the simulator (Balik Satu, Balik Lima Belas,
  Gonggong, Chaqui, Chot; Tantanan and Cekèn too), exact against the reference engine;
  its ``reset``, ``step`` (one action per hand, Gymnasium's vector-environment returns:
  observations, rewards, ``terminated``, ``truncated``, ``info``), ``mask`` and ``observe``
  are the vector API (:mod:`~cherki.vector.observe` encodes the observations);
* :mod:`~cherki.vector.policies`: random and heuristic policies acting on a whole batch;
* :mod:`~cherki.vector.env`: ``CherkiVectorEnv``, a ``gymnasium.vector.VectorEnv`` with one
  learning seat per hand (imported on its own: it needs the ``rl`` extra's Gymnasium).
"""

from cherki.vector.sets import GAMES, Finished, SetsVector

__all__ = ["GAMES", "Finished", "SetsVector"]
