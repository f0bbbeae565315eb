"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel (the optional extra ``rl``).

Each integration is a thin layer on the contract (:mod:`cherki.core.contract`): states,
sorted legal action ids, the observation's ``encode()`` and the declared bounds. Importing
:mod:`cherki.adapters.pettingzoo`, :mod:`cherki.adapters.gymnasium` or
:mod:`cherki.adapters.openspiel` registers every game with that library. What they share
(the table, rewards, the length cap) is :mod:`cherki.adapters.common`. See
``docs/research.md``.
"""
