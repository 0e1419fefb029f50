"""Per-block values of a block group: ``GetBlockIdx()`` lanes and per-block GM pointers.

Where Python needs one value (``int()``, ``if``, ``range()``, an index) the blocks of a group
must agree; when they do not, :class:`Divergent` stops the group, which then runs again as the
leading run of blocks that agree.

Examples
--------
>>> import numpy as np
>>> lanes = BlockLanes(np.arange(3)) * 4
>>> lanes.values.tolist(), int(lanes * 0 + 2)
([0, 4, 8], 2)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from ascreg.machine.memory import GmPtr, Pointer

Lanes = np.ndarray[Any, Any]


class GroupRefused(Exception):
    """Raised inside a group when only running its blocks one at a time gives the result."""


class UnevenOffsets(GroupRefused):
    """A GM buffer is reached at another offset per block than before in the same group.

    The group records the GM side of its copies for its first block only while each buffer is
    reached at one offset per block (:meth:`Group.copy`); when one is not, the group runs again
    recording every block's GM accesses.
    """


class Divergent(GroupRefused):
    """The blocks of a group disagree on a value Python needs as one (``if``, ``int()``, ...).

    ``agree[k]``: block *k* of the group has the first block's value.
    """

    def __init__(self, what: str, agree: Lanes) -> None:
        super().__init__(f"the blocks disagree on {what}")
        self.agree = agree


# -- per-block values ----------------------------------------------------------------------


def per_block(value: Any) -> Any:
    """Return the blocks' values of a :class:`BlockLanes`, or *value* (one for every block)."""
    return value.values if isinstance(value, BlockLanes) else value


def _binary(fn: Callable[[Any, Any], Any], swap: bool = False) -> Callable[[Any, Any], Any]:
    def method(self: BlockLanes, other: Any) -> Any:
        if isinstance(other, Pointer) or not isinstance(
            other, int | float | np.number | BlockLanes
        ):
            return NotImplemented
        a, b = (per_block(other), self.values) if swap else (self.values, per_block(other))
        return BlockLanes(fn(a, b))

    return method


class BlockLanes:
    """A value of each block of a group (``GetBlockIdx()`` and what is computed from it).

    Examples
    --------
    >>> lanes = BlockLanes(np.arange(4)) * 16 + 1
    >>> lanes.values.tolist(), int(lanes * 0 + 3)
    ([1, 17, 33, 49], 3)
    >>> bool(lanes > 20)
    Traceback (most recent call last):
    ...
    ascreg.engine.groups.values.Divergent: the blocks disagree on a truth value
    """

    __slots__ = ("values",)
    __array_ufunc__ = None  # numpy scalars and arrays defer to the reflected operators
    __ascreg_rows__ = True  # ``pointer + lanes`` defers to :meth:`__radd__`
    __ascreg_blocks__ = True  # ``GlobalTensor[lanes]`` is a tensor of per-block pointers

    def __init__(self, values: Lanes) -> None:
        self.values = values

    def __repr__(self) -> str:
        return f"BlockLanes({self.values.tolist()})"

    def one(self, what: str) -> Any:
        """Return the value every block has, or raise :class:`Divergent`."""
        values = self.values
        agree = values == values[0]
        if not agree.all():
            raise Divergent(what, agree)
        return values[0].item()

    def __ascreg_map__(self, function: Callable[[Lanes], Lanes]) -> BlockLanes:
        """Return *function* of the values (a C cast of per-block values: ``(uint64_t)idx``)."""
        return BlockLanes(function(self.values))

    def __bool__(self) -> bool:
        return bool(BlockLanes(self.values.astype(bool)).one("a truth value"))

    def __index__(self) -> int:
        if self.values.dtype.kind not in "iub":
            raise TypeError(f"{self!r} is not an integer")
        return int(self.one("an integer"))

    def __int__(self) -> int:
        return int(self.one("an integer"))

    def __float__(self) -> float:
        return float(self.one("a number"))

    def __hash__(self) -> int:
        return hash(self.one("a dictionary key"))

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, GmPtr):
            return BlockGmPtr.moved(other, self.values.astype(np.int64) * other.dtype.size)
        if isinstance(other, Pointer):
            raise GroupRefused(f"a per-block offset of {other!r}")
        return BlockLanes(other + self.values)

    def __neg__(self) -> BlockLanes:
        return BlockLanes(-self.values)

    def __abs__(self) -> BlockLanes:
        return BlockLanes(abs(self.values))

    def __invert__(self) -> BlockLanes:
        return BlockLanes(~self.values)

    __add__ = _binary(operator.add)
    __sub__ = _binary(operator.sub)
    __rsub__ = _binary(operator.sub, swap=True)
    __mul__ = _binary(operator.mul)
    __rmul__ = _binary(operator.mul, swap=True)
    __floordiv__ = _binary(operator.floordiv)
    __rfloordiv__ = _binary(operator.floordiv, swap=True)
    __truediv__ = _binary(operator.truediv)
    __rtruediv__ = _binary(operator.truediv, swap=True)
    __mod__ = _binary(operator.mod)
    __rmod__ = _binary(operator.mod, swap=True)
    __lshift__ = _binary(operator.lshift)
    __rshift__ = _binary(operator.rshift)
    __and__ = _binary(operator.and_)
    __rand__ = _binary(operator.and_, swap=True)
    __or__ = _binary(operator.or_)
    __ror__ = _binary(operator.or_, swap=True)
    __xor__ = _binary(operator.xor)
    __rxor__ = _binary(operator.xor, swap=True)
    __eq__ = _binary(operator.eq)
    __ne__ = _binary(operator.ne)
    __lt__ = _binary(operator.lt)
    __le__ = _binary(operator.le)
    __gt__ = _binary(operator.gt)
    __ge__ = _binary(operator.ge)


@attrs.frozen
class BlockLayout:
    """Where the blocks of a group find a per-block address, from the first block's.

    Attributes
    ----------
    deltas
        Each block's offset in bytes from the first block's address.
    step
        The offset between consecutive blocks when it is one number, else None.
    low, high
        The smallest and the largest offset.

    Examples
    --------
    >>> layout = BlockLayout.of(np.array([100, 164, 228]))
    >>> layout.step, layout.low, layout.high
    (64, 0, 128)
    """

    deltas: Lanes
    step: int | None
    low: int
    high: int

    @classmethod
    def of(cls, addresses: Lanes) -> BlockLayout:
        """Return the layout of the blocks' *addresses*."""
        deltas = addresses - addresses[0]
        deltas.flags.writeable = False
        step: int | None = int(deltas[1]) if deltas.size > 1 else 0
        if deltas.size > 2 and (np.diff(deltas) != step).any():
            step = None
        return cls(deltas, step, int(deltas.min()), int(deltas.max()))


def _refused_address(self: BlockGmPtr) -> int:
    raise GroupRefused(f"{self!r} used as one address")


class BlockGmPtr(GmPtr[Any]):
    """A ``__gm__`` pointer with one address per block of a group (``x + GetBlockIdx() * n``).

    Its plain ``address`` refuses (code that does not know about groups stops the group);
    ``+``, ``cast`` and ``offset_bytes`` keep one address per block.

    Examples
    --------
    >>> from ascreg import GlobalMemory, float32_t
    >>> p = GlobalMemory().alloc(float32_t, 64) + BlockLanes(np.arange(2)) * 8
    >>> (p + 1).addresses.tolist()
    [4, 36]
    """

    __slots__ = ("addresses", "layout")
    addresses: Lanes
    layout: BlockLayout | None
    address = property(_refused_address)

    @classmethod
    def moved(cls, base: Pointer[Any], nbytes: Any) -> BlockGmPtr:
        """Return *base* moved by ``nbytes[k]`` bytes for block *k*."""
        ptr = object.__new__(cls)
        ptr.memory, ptr.dtype, ptr.block = base.memory, base.dtype, base.block
        start = base.addresses if isinstance(base, BlockGmPtr) else base.address
        ptr.addresses = start + nbytes
        # the same move for every block keeps the blocks' offsets from each other: worked out
        # once for the pointer a tile loop indexes (``xGm[i * n]``), not once per tile
        ptr.layout = base.relative() if isinstance(base, BlockGmPtr) and nbytes.ndim == 0 else None
        return ptr

    def relative(self) -> BlockLayout:
        """Return the blocks' offsets from the first block's address (worked out once)."""
        if self.layout is None:
            self.layout = BlockLayout.of(self.addresses)
        return self.layout

    def __repr__(self) -> str:
        return f"<__gm__ {self.dtype.cpp_name}* per block {self.addresses.tolist()[:4]}...>"

    def __add__(self, n: Any) -> BlockGmPtr:
        if isinstance(n, BlockLanes):
            return BlockGmPtr.moved(self, n.values.astype(np.int64) * self.dtype.size)
        return BlockGmPtr.moved(self, np.int64(operator.index(n) * self.dtype.size))

    __radd__ = __add__

    def __sub__(self, n: Any) -> Any:
        if isinstance(n, Pointer):
            raise GroupRefused("a difference of per-block pointers")
        return self + (-n)

    def offset_bytes(self, nbytes: int) -> BlockGmPtr:
        """Return the pointer moved by *nbytes* bytes in every block."""
        return BlockGmPtr.moved(self, np.int64(int(nbytes)))

    def cast(self, dtype: Any) -> BlockGmPtr:
        """Return the same addresses viewed as *dtype*."""
        cast = BlockGmPtr.moved(self, np.int64(0))
        cast.dtype = GmPtr(self.memory, dtype, 0, None).dtype
        return cast

    def of(self, k: int) -> GmPtr[Any]:
        """Return the pointer of block *k* of the group."""
        return GmPtr(self.memory, self.dtype, int(self.addresses[k]), self.block)
