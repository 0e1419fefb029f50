"""Recording a run: what each block issued, in program order, with its source lines.

A :class:`Recorder` is the hook of :mod:`ascreg.machine.trace`. It keeps one
:class:`BlockRecord` per running block (and one for plain Reg code run outside any kernel),
whose ``program`` is the list of :class:`Instr` the block's scalar unit issued:

* an op called in the kernel body (a copy, a kernel-level vector instruction, a scalar
  instruction) is one instruction, its pipe and bytes taken from the pipe tracker's events while
  it runs;
* a VF (``__simd_vf__``, ``asc_vf_call``, ``__VEC_SCOPE__``) is one ``"vf"`` instruction on
  ``PIPE_V`` holding one :class:`Group` per op and source line, which counts the op's calls: a
  loop run eagerly adds one call an iteration, a batched loop one call per op for all its
  iterations, and a loop replayed from a recorded plan (whose ops never reach a forwarder) the
  calls its batched run recorded. So a trace grows with the kernel's ops, not its data;
* flags, barriers, queue tokens and mutexes are ``"set"`` / ``"wait"`` / ``"barrier"`` /
  ``"pipe_barrier"`` instructions;
* accesses made outside any op (the basic API's ``DataCopy``, a scalar ``GetValue``) are grouped
  by the call in the kernel that made them (one copy of many bursts is one instruction).

The scheduler (:mod:`ascreg.profile.schedule`) turns a program into time.

Examples
--------
>>> site_of(None)
Site(file='?', line=0, function='?')
"""

from __future__ import annotations

import os
import sys
import sysconfig
import types
from collections.abc import Callable
from typing import Any, NamedTuple

import attrs
import numpy as np

from ascreg._frontend.operands import SIMT
from ascreg.errors import CALL_MARKER
from ascreg.machine.block import _STACK, BlockContext
from ascreg.machine.memory import Pointer
from ascreg.machine.registers import BATCHING, VL, MaskReg, RegTensor, RegTraitNumTwo
from ascreg.machine.sync import COPY_PIPES, UB, LoopAccess, Pipe, PipeTracker
from ascreg.machine.trace import GENERATION, RECORDING

PIPE_S, PIPE_V = Pipe.PIPE_S, Pipe.PIPE_V
WARP = 32
"""Threads a SIMT instruction issues for at once (a SIMT call's repeats are its warps)."""


class Site(NamedTuple):
    """A place in the kernel's source: file, line and function (a tuple: one is made per event).

    Examples
    --------
    >>> str(Site("/k/add.py", 12, "add_custom"))
    'add.py:12'
    """

    file: str
    line: int
    function: str

    def __str__(self) -> str:
        return f"{os.path.basename(self.file)}:{self.line}"


UNKNOWN = Site("?", 0, "?")
"""The site of an event no user frame is on the stack of."""

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_EXAMPLES = os.path.join(_PACKAGE, "examples") + os.sep
_STDLIB = os.path.abspath(sysconfig.get_paths()["stdlib"]) + os.sep
_INTERNAL: dict[str, bool] = {}
"""Whether code of each file name is :func:`internal` (a code object's hash is not cached)."""


def internal(code: types.CodeType) -> bool:
    """Return True for code of ascreg itself (not its examples), the standard library or generated.

    Examples
    --------
    >>> internal(internal.__code__), internal(compile("1", "kernel.py", "eval"))
    (True, False)
    """
    name = code.co_filename
    known = _INTERNAL.get(name)
    if known is None:
        known = _INTERNAL[name] = name.startswith("<ascreg") or (
            (name.startswith(_PACKAGE) and not name.startswith(_EXAMPLES))
            or name.startswith(_STDLIB)
        )
    return known


def user_frame(frame: types.FrameType | None) -> types.FrameType | None:
    """Return the innermost frame of *frame*'s stack that is not :func:`internal`."""
    while frame is not None and internal(frame.f_code):
        frame = frame.f_back
    return frame


def site_of(frame: types.FrameType | None) -> Site:
    """Return the :class:`Site` of *frame* (a user frame), :data:`UNKNOWN` for None."""
    if frame is None:
        return UNKNOWN
    code = frame.f_code
    key = (id(code), frame.f_lasti)
    site = _SITES.get(key)
    if site is None:
        if len(_SITES) > 1 << 14:
            _SITES.clear()
        _KEEP[id(code)] = code
        site = _SITES[key] = Site(code.co_filename, frame.f_lineno, code.co_name)
    return site


_SITES: dict[tuple[int, int], Site] = {}
"""The site of each calling instruction met so far (by code id and offset)."""
_KEEP: dict[int, types.CodeType] = {}
"""The code objects the keys of the caches name by id (see :func:`_kept`); never dropped."""


def entry_name(frame: types.FrameType | None) -> str:
    """Return the public call the user made from the stack below *frame* (innermost first).

    The outermost ``_ascreg_call`` local before the user frame, else the outermost internal
    function's name.
    """
    named, outermost = None, "?"
    while frame is not None and internal(frame.f_code):
        code = frame.f_code
        if CALL_MARKER in code.co_varnames:  # (reading f_locals costs; most frames lack it)
            call = frame.f_locals.get(CALL_MARKER)
            if isinstance(call, str):
                named = call
        outermost = code.co_qualname
        frame = frame.f_back
    return (named or outermost).split("<<<", 1)[0]


class Group:
    """The calls of one op at one source line inside one VF call.

    Attributes
    ----------
    name, family
        The op's spelling (``"Reg.Add"``) and C++ family (``"Add"``).
    dtype
        The C++ element type of its first register operand (``"float"``), ``"mask"``, or ``""``.
    site
        The line that calls it.
    calls
        How many times it ran (a batched call counts every iteration it stands for).
    repeats
        Vector repeats per call (2 for a ``RegTraitNumTwo`` register pair).
    lanes
        Active lanes of a repeat, from the mask operand of its first call (all lanes without).
    simt
        A SIMT device function (costed per call).
    """

    __slots__ = ("calls", "dtype", "family", "lanes", "name", "repeats", "simt", "site")

    def __init__(
        self,
        name: str,
        family: str,
        dtype: str,
        site: Site,
        calls: int = 0,
        repeats: int = 1,
        lanes: float = 0.0,
        simt: bool = False,
    ) -> None:
        self.name, self.family, self.dtype, self.site = name, family, dtype, site
        self.calls, self.repeats, self.lanes, self.simt = calls, repeats, lanes, simt

    def __repr__(self) -> str:
        return f"Group({self.name!r}, {self.dtype!r}, {str(self.site)!r}, calls={self.calls})"

    def copy(self) -> Group:
        """Return a copy with no calls (the same op and line in another VF call)."""
        return Group(
            self.name, self.family, self.dtype, self.site, 0, self.repeats, self.lanes, self.simt
        )


class Instr:
    """One instruction the block's scalar unit issued (see the module docstring).

    Attributes
    ----------
    kind
        ``"op"`` (on ``pipe``), ``"scalar"``, ``"vf"``, ``"set"``, ``"wait"``, ``"barrier"``
        or ``"pipe_barrier"``.
    pipe
        The pipe it runs on (``"set"``: the flag's source; ``"wait"``: its destination).
    name, site, dtype
        What it is and where the kernel calls it.
    written, read
        Bytes written and read (a copy's destination and source; a vector instruction's).
    bursts
        Copy bursts (accesses, for scalar ones).
    groups
        A VF's ops.
    key
        What a ``"set"`` and the ``"wait"`` it releases share: ``("flag", src, dst, id)`` (a
        FIFO of sets), ``("token", n)`` or ``("mutex", id)`` (the latest set).
    synced
        An op whose work was a flag or barrier (those are instructions of their own).
    """

    __slots__ = (
        "bursts",
        "dtype",
        "groups",
        "key",
        "kind",
        "name",
        "pipe",
        "read",
        "site",
        "synced",
        "written",
    )

    def __init__(
        self,
        kind: str,
        pipe: Pipe | None,
        name: str,
        site: Site,
        dtype: str = "",
        *,
        groups: list[Group] | None = None,
        key: tuple[Any, ...] = (),
    ) -> None:
        self.kind, self.pipe, self.name, self.site, self.dtype = kind, pipe, name, site, dtype
        self.written = self.read = self.bursts = 0
        self.groups: list[Group] = [] if groups is None else groups
        self.key = key
        self.synced = False

    def __repr__(self) -> str:
        pipe = "-" if self.pipe is None else self.pipe.name
        return f"Instr({self.kind!r}, {pipe}, {self.name!r}, {str(self.site)!r})"


@attrs.define(eq=False)
class VfRecord:
    """The VF being recorded: its name, call site and groups (by op, code, line and operand)."""

    name: str
    site: Site
    groups: dict[Any, Group] = attrs.field(factory=dict)
    restore: bool = False
    """The recorder put itself back into :data:`RECORDING` for the VF (called inside an op)."""


class BlockRecord:
    """What one block (or plain code outside any kernel) issued: its ``program``.

    Parameters
    ----------
    label
        The block's name in the trace (``"add_custom block 0"``).
    launch
        Which launch of the profile (0, 1, ...); launches follow one another in time.
    bare
        Plain code outside any kernel: its ops are one VF that lasts the whole run.
    """

    def __init__(
        self,
        label: str,
        launch: int,
        *,
        block_idx: int = 0,
        bare: bool = False,
        protos: dict[Any, Group] | None = None,
    ) -> None:
        self.label = label
        self.launch = launch
        self.block_idx = block_idx
        self.program: list[Instr] = []
        self.current: Instr | None = None
        """The kernel-body op running now (its events become its pipe and bytes)."""
        self.loose: Instr | None = None
        self.loose_at: tuple[int, int] = (0, -1)
        """The instruction made of accesses outside any op, and the call (frame, offset) it is."""
        self.vf: VfRecord | None = None
        self.vf_depth = 0
        self.bare = bare
        # the batched loop whose op calls the open VF counts, and what they changed
        self.batch: Any = None
        self.batch_keys: list[Any] = []
        self.batch_before: dict[Any, int] = {}
        self.batch_committed = False
        self.protos: dict[Any, Group] = _PROTOS if protos is None else protos
        """The group of each op call met before (:data:`_PROTOS`)."""
        self.tokens: dict[int, Any] = {}
        """Queue tokens by id, kept alive so that an id is never reused."""
        if bare:
            self.vf = VfRecord("plain Reg code (no kernel)", UNKNOWN)

    # -- instructions -----------------------------------------------------------------------

    def emit(self, instr: Instr) -> None:
        """Append *instr* to the program, after the open accesses' instruction."""
        self.close_loose()
        self.program.append(instr)

    def close_loose(self) -> None:
        """End the instruction made of accesses outside any op, if one is open."""
        if self.loose is not None:
            self.program.append(self.loose)
            self.loose = None

    def finish(self) -> None:
        """End what is open (the run, or the block, is over)."""
        self.resolve_batch(None)
        if self.vf is not None and self.vf.groups:
            self.emit(
                Instr(
                    "vf", PIPE_V, self.vf.name, self.vf.site, groups=list(self.vf.groups.values())
                )
            )
        self.vf = None
        self.close_loose()

    # -- ops --------------------------------------------------------------------------------

    def op_begin(
        self, op: Any, args: tuple[Any, ...], frame: types.FrameType | None
    ) -> Instr | None:
        """Record the start of a call of *op* from *frame*; return the kernel-body instruction."""
        vf = self.vf
        if vf is not None:
            self.vf_call(vf, op, args, frame)
            return None
        self.close_loose()
        instr = Instr("op", None, op.name, site_of(user_frame(frame)), _dtype(op, args))
        self.current = instr
        return instr

    def op_end(self, instr: Instr | None) -> None:
        """Record the end of the kernel-body op *instr* (see :meth:`op_begin`)."""
        if instr is None:
            return
        self.current = None
        if instr.synced:
            return
        if instr.pipe is None or instr.pipe is PIPE_S:
            instr.kind, instr.pipe = "scalar", PIPE_S
        self.program.append(instr)

    def vf_call(
        self,
        vf: VfRecord,
        op: Any,
        args: tuple[Any, ...],
        frame: types.FrameType | None,
        key: Any = None,
    ) -> None:
        """Count a call of *op* in the open VF (one call per iteration it stands for).

        *key* (:func:`call_key`) names the group: the op, the calling instruction and the
        type of the first operand.
        """
        if key is None:
            key = call_key(op, args, frame)
        batch = BATCHING[-1] if BATCHING else None
        if batch is not self.batch:
            self.resolve_batch(key)
        group = vf.groups.get(key)
        if group is None:
            proto = self.protos.get(key)
            if proto is None:
                if frame is not None:
                    _kept(frame.f_code)  # the key names it by id
                proto = self.protos[key] = _group(op, args, site_of(user_frame(frame)))
            group = vf.groups[key] = proto.copy()
        if batch is None:
            group.calls += 1
            return
        if key not in self.batch_before:
            self.batch_before[key] = group.calls
        self.batch_keys.append((key, group))
        group.calls += batch.count

    # -- batched loops ----------------------------------------------------------------------

    def resolve_batch(self, key: Any) -> None:
        """Keep or undo the calls counted for the last loop batch of the VF (it has ended).

        A batch that was undone (its loop then runs eagerly) never reported its accesses to
        the block (:meth:`rows`); one that touched no UB reports nothing either way, and is
        taken as undone only when the next call (*key*) is its first op again, eagerly.
        """
        batch, vf = self.batch, self.vf
        if batch is not None and vf is not None and not self.batch_committed:
            first = self.batch_keys[0][0] if self.batch_keys else None
            undone = getattr(batch, "watched", False) or (
                key is not None and key == first and not BATCHING
            )
            if undone:
                for old, calls in self.batch_before.items():
                    group = vf.groups.get(old)
                    if group is not None:
                        group.calls = calls
                        if not calls:
                            del vf.groups[old]
        self.batch = BATCHING[-1] if BATCHING else None
        self.batch_keys, self.batch_before, self.batch_committed = [], {}, False

    def rows(self, recorder: Recorder, loop: LoopAccess) -> None:
        """Note that a batched loop reported its UB accesses to the block: it ran (or replayed).

        A loop whose op calls this VF counted is kept; its ops are remembered by the VF's code
        and the loop's access pattern. A loop replayed from a plan made no op call: the ops its
        batched run counted are counted again, once per iteration of this run.
        """
        vf = self.vf
        batch = BATCHING[-1] if BATCHING else None
        if vf is None or batch is None:
            return
        user = user_frame(sys._getframe(1))
        shape = tuple((g.write, g.width, g.step) for g in loop.groups)
        code = 0 if user is None else _kept(user.f_code)
        line = 0 if user is None else user.f_lineno
        if batch is self.batch and self.batch_keys:
            self.batch_committed = True
            count = batch.count
            kept = [key for key, _ in self.batch_keys]
            recorder.plans[(code, line, shape)] = recorder.plans[(code, shape)] = (kept, count)
            return
        self.resolve_batch(None)
        known = recorder.plans.get((code, line, shape)) or recorder.plans.get((code, shape))
        if known is None:
            key = ("replayed", code, line, shape)
            group = vf.groups.get(key)
            if group is None:
                group = vf.groups[key] = Group("replayed loop", "vector", "", site_of(user))
            group.calls += batch.count * max(1, len(loop.groups))
            self.batch_committed = True
            return
        for key in known[0]:
            group = vf.groups.get(key)
            if group is None:
                group = vf.groups[key] = self.protos[key].copy()
            group.calls += batch.count
        self.batch_committed = True

    # -- pipe events ------------------------------------------------------------------------

    def access(self, pipe: Pipe, nbytes: int, write: bool) -> None:
        """Count an access of *nbytes* by *pipe* (a copy's bytes, a scalar access, ...)."""
        if self.vf is not None:
            return
        instr = self.current
        if instr is None:
            loose = self.loose  # a copy's bursts follow its begin_copy: no need to look up
            if loose is not None and loose.pipe is pipe and pipe in COPY_PIPES:
                instr = loose
            else:
                instr = self.loose_for(pipe, sys._getframe(1))
                instr.bursts += pipe is PIPE_S
        if instr.pipe is None or pipe is not PIPE_S:
            instr.pipe = instr.pipe if instr.pipe in COPY_PIPES else pipe
        if write:
            instr.written += nbytes
        else:
            instr.read += nbytes

    def begin_copy(self, pipe: Pipe) -> None:
        """Count a copy burst starting on *pipe*."""
        if self.vf is not None:
            return
        instr = self.current
        if instr is None:
            instr = self.loose_for(pipe, sys._getframe(1), copy=True)
        instr.pipe = pipe
        instr.bursts += 1

    def loose_for(self, pipe: Pipe, frame: types.FrameType | None, *, copy: bool = False) -> Instr:
        """Return the open instruction of accesses outside any op, made by the call at *frame*."""
        user = user_frame(frame)
        at = (id(user), -1 if user is None else user.f_lasti)
        loose = self.loose
        if (
            loose is not None
            and self.loose_at == at
            and (loose.pipe is pipe or (not copy and loose.pipe in COPY_PIPES))
        ):
            return loose
        self.close_loose()
        kind = "op" if pipe is not PIPE_S else "scalar"
        where = (0 if user is None else _kept(user.f_code), at[1])
        name = _NAMES_AT.get(where)
        if name is None:
            name = _NAMES_AT[where] = entry_name(frame)
        self.loose = Instr(kind, pipe, name, site_of(user))
        self.loose_at = at
        return self.loose

    def sync(self, kind: str, pipe: Pipe | None, key: tuple[Any, ...], name: str) -> None:
        """Record a flag set or wait, a barrier or an in-pipe barrier."""
        if self.current is not None:
            self.current.synced = True
        site = (
            self.current.site if self.current is not None else site_of(user_frame(sys._getframe(1)))
        )
        self.emit(Instr(kind, pipe, name, site, key=key))

    def vf_begin(self, recorder: Recorder) -> None:
        """Open a VF (the scalar code before it has issued)."""
        self.vf_depth += 1
        if self.vf_depth > 1 or self.bare:
            return
        self.close_loose()
        frame = sys._getframe(1)
        user = user_frame(frame)
        where = (0 if user is None else _kept(user.f_code), -1 if user is None else user.f_lasti, 1)
        name = _NAMES_AT.get(where)
        if name is None:
            name = _NAMES_AT[where] = _vf_name(frame)
        self.vf = VfRecord(name, site_of(user))
        if not RECORDING:  # a VF called inside an op: its ops are recorded all the same
            RECORDING.append(recorder)
            self.vf.restore = True

    def vf_end(self) -> None:
        """Close the VF of :meth:`vf_begin` (it returns): emit it as one instruction."""
        self.vf_depth -= 1
        if self.vf_depth or self.bare or self.vf is None:
            return
        vf = self.vf
        self.resolve_batch(None)
        self.vf = None
        if vf.restore and RECORDING:
            RECORDING.pop()
        self.emit(Instr("vf", PIPE_V, vf.name, vf.site, groups=list(vf.groups.values())))


_PROTOS: dict[Any, Group] = {}
"""The group (its op, line, dtype, lanes) of each op call met so far, by :func:`call_key`: made
once, copied into each VF call (and each profile) that makes the call again."""
_MAX_PROTOS = 1 << 14
_LOOPS: dict[Any, Any] = {}
"""The ops each batched loop's batched run called, met in any profile so far (emptied with
:data:`_PROTOS`): a loop replayed in a later profile counts them without running batched
again (:data:`ascreg.machine.trace.GENERATION`)."""
_NAMES_AT: dict[tuple[Any, ...], str] = {}
"""The public call (:func:`entry_name`) made by each calling instruction met so far."""


def call_key(op: Any, args: tuple[Any, ...], frame: types.FrameType | None) -> tuple[Any, ...]:
    """Return what tells one op call's group in a VF from another's.

    The op, the instruction that calls it (its code object and offset: every iteration of a
    loop makes the same call) and the class of its first operand (a VF called with other
    dtypes makes other groups).
    """
    first = type(args[0]) if args else None
    if frame is None:
        return (op, 0, 0, first)
    return (op, _kept(frame.f_code), frame.f_lasti, first)


def _kept(code: types.CodeType) -> int:
    """Return the id of *code*, kept alive so that no other code object gets it.

    Keys hold code objects by id: hashing a code object hashes all of it (its hash is not
    cached), and a key is made for every op call.
    """
    _KEEP[id(code)] = code
    return id(code)


def _vf_name(frame: types.FrameType | None) -> str:
    """Return the name of the VF being started: a ``func`` local on the stack, else ``"VF"``."""
    while frame is not None and internal(frame.f_code):
        if "func" in frame.f_code.co_varnames:
            name = getattr(frame.f_locals.get("func"), "__name__", None)
            if isinstance(name, str):
                return name
        frame = frame.f_back
    return "VF"


def _registers(args: tuple[Any, ...]) -> list[Any]:
    return [a for a in args if isinstance(a, RegTensor | MaskReg)]


def _dtype(op: Any, args: tuple[Any, ...]) -> str:
    """Return the C++ element type an op call works on (its first register or pointer)."""
    for arg in args:
        if isinstance(arg, MaskReg):
            return "mask"
        if isinstance(arg, RegTensor | Pointer):
            return str(arg.dtype.cpp_name)
    dtypes = getattr(getattr(op, "t", None), "dtypes", ())
    return str(getattr(dtypes[0], "cpp_name", "")) if dtypes else ""


def _group(op: Any, args: tuple[Any, ...], site: Site) -> Group:
    """Return a new :class:`Group` of *op* called with *args* at *site*."""
    spec = getattr(op, "spec", None)
    family = getattr(spec, "family", None) or op.name.removeprefix("Reg.")
    dtype = _dtype(op, args)
    registers = _registers(args)
    pair = any(getattr(r, "trait", None) is RegTraitNumTwo for r in registers)
    size = next((r.dtype.size for r in registers if isinstance(r, RegTensor)), 1)
    lanes = VL / size
    for arg in registers:
        if isinstance(arg, MaskReg):
            bits = arg.held()
            if bits is not None:
                lanes = float(bits.reshape(-1, bits.shape[-1])[:, ::size].sum()) / (
                    bits.size // bits.shape[-1]
                )
            break
    if getattr(op, "surface", None) is SIMT:  # one call runs a group of threads' lanes at once
        threads = max((a.size for a in args if isinstance(a, np.ndarray)), default=1)
        return Group(
            op.name, family, dtype, site, repeats=-(-threads // WARP), lanes=threads, simt=True
        )
    return Group(op.name, family, dtype, site, repeats=2 if pair else 1, lanes=lanes)


class TracingTracker(PipeTracker):
    """A :class:`~ascreg.machine.sync.PipeTracker` that also reports to its :class:`BlockRecord`.

    The recorder swaps it in as the class of each block's tracker (:meth:`Recorder.block`);
    every method checks first, as the plain tracker does, then reports.
    """

    record: BlockRecord
    recorder: Recorder

    def access(  # noqa: D102
        self, pipe: Pipe, start: int, end: int, write: bool, space: int = UB, *, free: bool = False
    ) -> None:
        PipeTracker.access(self, pipe, start, end, write, space, free=free)
        self.record.access(pipe, end - start, write)

    def access_rows(self, pipe: Pipe, loop: LoopAccess) -> bool:  # noqa: D102
        done = PipeTracker.access_rows(self, pipe, loop)
        if done:
            self.record.rows(self.recorder, loop)
        return done

    def begin_copy(self, pipe: Pipe) -> None:  # noqa: D102
        PipeTracker.begin_copy(self, pipe)
        self.record.begin_copy(pipe)

    def notify(self, src: Pipe, dst: Pipe, event: int) -> None:  # noqa: D102
        PipeTracker.notify(self, src, dst, event)
        self.record.sync("set", src, ("flag", src, dst, event), _flag("SetFlag", src, dst, event))

    def wait(self, src: Pipe, dst: Pipe, event: int) -> None:  # noqa: D102
        PipeTracker.wait(self, src, dst, event)
        self.record.sync("wait", dst, ("flag", src, dst, event), _flag("WaitFlag", src, dst, event))

    def token(self, src: Pipe) -> dict[Pipe, int]:  # noqa: D102
        known = PipeTracker.token(self, src)
        self.record.tokens[id(known)] = known
        self.record.sync("set", src, ("token", id(known)), f"set {_name(src)} (queue)")
        return known

    def acquire(self, dst: Pipe, known: dict[Pipe, int]) -> None:  # noqa: D102
        PipeTracker.acquire(self, dst, known)
        self.record.sync("wait", dst, ("token", id(known)), f"wait {_name(dst)} (queue)")

    def barrier(self) -> None:  # noqa: D102
        PipeTracker.barrier(self)
        self.record.sync("barrier", None, (), "PipeBarrier<PIPE_ALL>")

    def pipe_barrier(self, pipe: Pipe) -> None:  # noqa: D102
        PipeTracker.pipe_barrier(self, pipe)
        self.record.sync("pipe_barrier", pipe, (), f"PipeBarrier<PIPE_{_NAMES[pipe]}>")

    def lock(self, pipe: Pipe, mutex: int, *, blocking: bool = True) -> None:  # noqa: D102
        PipeTracker.lock(self, pipe, mutex, blocking=blocking)
        if blocking:
            self.record.sync(
                "wait", pipe, ("mutex", mutex), f"asc_lock(PIPE_{_NAMES[pipe]}, {mutex})"
            )

    def unlock(self, pipe: Pipe, mutex: int, *, blocking: bool = True) -> None:  # noqa: D102
        PipeTracker.unlock(self, pipe, mutex, blocking=blocking)
        self.record.sync("set", pipe, ("mutex", mutex), f"asc_unlock(PIPE_{_NAMES[pipe]}, {mutex})")

    def vf_boundary(self, entering: bool) -> None:  # noqa: D102
        record = self.record
        if entering:
            record.vf_begin(self.recorder)
            self.__class__ = InVfTracker  # a VF's accesses are its ops': not reported one by one
        else:
            record.vf_end()
            if not record.vf_depth:
                self.__class__ = TracingTracker


class InVfTracker(TracingTracker):
    """The tracker of a block while a VF runs: its UB accesses go straight to the checks.

    The VF's time comes from its op calls (:meth:`Recorder.call`) and batched loops
    (:meth:`TracingTracker.access_rows`); copies, flags and barriers cannot happen inside.
    """

    access = PipeTracker.access
    begin_copy = PipeTracker.begin_copy


_NAMES = {pipe: pipe.name.removeprefix("PIPE_") for pipe in Pipe}
"""Each pipe's short name (``Enum.name`` is a slow property: flags are recorded often)."""


def _name(pipe: Pipe) -> str:
    return _NAMES[pipe]


def _flag(call: str, src: Pipe, dst: Pipe, event: int) -> str:
    return f"{call} {_name(src)}->{_name(dst)} #{event}"


class Recorder:
    """The hook a profile installs in :data:`ascreg.machine.trace.RECORDING` (one at a time).

    Examples
    --------
    >>> rec = Recorder(); rec.start(); rec.stop(); rec.records
    []
    """

    def __init__(self) -> None:
        self.records: list[BlockRecord] = []
        self.bare: BlockRecord | None = None
        if len(_PROTOS) > _MAX_PROTOS:
            _PROTOS.clear()
            _NAMES_AT.clear()
            _LOOPS.clear()
            GENERATION[0] += 1  # the engine's plans recorded before replay no more
        self.plans: dict[Any, Any] = _LOOPS
        """The ops each batched loop's batched run called, by its VF, line and access pattern
        (:data:`_LOOPS`, for the loop's replays)."""
        self.protos: dict[Any, Group] = _PROTOS
        """The group of each op call met so far (:data:`_PROTOS`)."""
        self._last: tuple[str, int, int] | None = None
        self.launches = 0

    def start(self) -> None:
        """Install the recorder (raise if another profile records)."""
        if RECORDING:
            from ascreg.errors import AscregError

            raise AscregError(
                "another profile is recording: profiles do not nest", call="ascreg.profile"
            )
        RECORDING.append(self)

    def stop(self) -> None:
        """Uninstall the recorder and end every open record."""
        if self in RECORDING:
            RECORDING.remove(self)
        for record in self.records:
            record.finish()

    # -- the hook ---------------------------------------------------------------------------

    def block(self, ctx: BlockContext) -> None:
        """Watch the pipes of block *ctx*, a new block of this launch or of a new one."""
        key = (ctx.kernel, ctx.block_num, ctx.block_idx)
        last = self._last
        if last is None or last[:2] != key[:2] or key[2] <= last[2]:
            self.launches += 1
        self._last = key
        kernel = ctx.kernel.split("<<<", 1)[0]
        record = BlockRecord(
            f"{kernel} block {ctx.block_idx}", self.launches - 1, block_idx=ctx.block_idx,
            protos=self.protos,
        )  # fmt: skip
        self.records.append(record)
        tracker = ctx.tracker
        tracker.__class__ = TracingTracker
        assert isinstance(tracker, TracingTracker)
        tracker.record = record
        tracker.recorder = self

    def call(
        self,
        op: Any,
        forwarder: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        """Run ``forwarder(*args, **kwargs)`` (the op call, untraced inside) and record it.

        An op call inside a VF, the common case, is counted on a short path.
        """
        try:
            record = getattr(_STACK[-1].tracker, "record", None) if _STACK else self._bare()
            if record is None:  # a block that started before the profile
                return forwarder(*args, **kwargs) if kwargs else forwarder(*args)
            operands = args[1:] if args and args[0] is op else args
            frame = sys._getframe(2)
            vf = record.vf
            if vf is not None:
                key = (op, id(frame.f_code), frame.f_lasti, type(operands[0]) if operands else None)
                group = vf.groups.get(key)
                if group is not None and not BATCHING and record.batch is None:
                    group.calls += 1
                else:
                    record.vf_call(vf, op, operands, frame, key)
                return forwarder(*args, **kwargs) if kwargs else forwarder(*args)
            instr = record.op_begin(op, operands, frame)
            try:
                return forwarder(*args, **kwargs) if kwargs else forwarder(*args)
            finally:
                record.op_end(instr)
        finally:
            RECORDING.append(self)

    def _bare(self) -> BlockRecord:
        """Return the record of plain code outside any kernel (made on first use)."""
        bare = self.bare
        if bare is None:
            bare = self.bare = BlockRecord(
                "plain Reg code (no kernel)", self.launches, bare=True, protos=self.protos
            )
            self.launches += 1
            self._last = None
            self.records.append(bare)
        return bare
