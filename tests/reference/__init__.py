"""Scalar references, one module per op family, written from the spec (``../shared/spec/``).

Everything here works one lane at a time on plain Python values and never calls the vectorised
core in ``src/ascreg/core``: the property tests compare the two. Import what you need from the
family module (``from reference.shifts import shift_right``); :mod:`reference.common` holds the
dtype facts, the hand-written float codec and the glue between numpy arrays and bit lists.

Reg / C API families: ``masks``, ``compare``, ``shifts``, ``arith``, ``reduce``, ``rearrange``,
``datamove``, ``unaligned``. SIMT families: ``intrinsics``, ``floatmath``, ``warp``, ``atomics``.
"""
