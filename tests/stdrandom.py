"""``std::mt19937``, ``std::uniform_int_distribution`` and ``std::rand`` as glibc/libstdc++ compute them.

Example ports whose host code draws from ``std::mt19937`` or ``std::rand`` make the same inputs
with these.
numpy's legacy ``RandomState(seed)`` seeds its Mersenne Twister as ``std::mt19937(seed)`` does,
so the raw 32-bit words are the same; libstdc++ (GCC 11 and later) maps a word to ``[a, b]`` by
Lemire's multiply-and-shift with rejection when the range is below 2**32 (checked against g++
12.2 for 9000 draws of three distributions).
"""

from __future__ import annotations

import numpy as np

WORD = 1 << 32
BATCH = 4096


class Mt19937:
    """``std::mt19937 gen(seed)``: call it for the next 32-bit word.

    Examples
    --------
    >>> gen = Mt19937(42)
    >>> gen(), gen()
    (1608637542, 3421126067)
    """

    def __init__(self, seed: int) -> None:
        self._state = np.random.RandomState(seed)
        self._words: list[int] = []
        self._next = 0

    def __call__(self) -> int:
        if self._next == len(self._words):
            self._words = self._state.randint(0, WORD, BATCH, dtype=np.uint32).tolist()
            self._next = 0
        word = self._words[self._next]
        self._next += 1
        return word


def uniform_int(gen: Mt19937, a: int, b: int) -> int:
    """One draw of ``std::uniform_int_distribution<T>(a, b)(gen)`` (``b - a < 2**32 - 1``).

    Examples
    --------
    >>> gen = Mt19937(42)
    >>> uniform_int(gen, 1, 64), uniform_int(gen, -10, 10), uniform_int(gen, 0, 1023)
    (24, 6, 973)
    """
    span = b - a + 1
    product = gen() * span
    low = product % WORD
    if low < span:
        threshold = (WORD - span) % span  # -span % span in 32-bit unsigned arithmetic
        while low < threshold:
            product = gen() * span
            low = product % WORD
    return product // WORD + a


def glibc_rand(seed: int, count: int) -> list[int]:
    """``std::srand(seed)`` then *count* ``std::rand()`` calls, as glibc computes them.

    glibc's default generator (TYPE_3): 34 seeded words ``r[i] = 16807 * r[i-1] mod (2**31 -
    1)`` for ``i < 31``, ``r[i] = r[i-31]`` for ``31 <= i < 34``, then ``r[i] = r[i-31] +
    r[i-3]`` (mod 2**32); the first 310 words past the seed words are discarded and each call
    returns ``r[i] >> 1``.
    """
    r = [seed or 1]
    for i in range(1, 31):
        hi, lo = divmod(r[i - 1], 127773)
        word = 16807 * lo - 2836 * hi
        r.append(word + 2147483647 if word < 0 else word)
    r.extend(r[i - 31] for i in range(31, 34))
    for i in range(34, 344 + count):
        r.append((r[i - 31] + r[i - 3]) & 0xFFFFFFFF)
    return [word >> 1 for word in r[344:]]
