"""The execution engine: what makes the machine model fast without changing a result.

The machine model (:mod:`ascreg.machine`) runs a kernel exactly as written, one op call at a
time. The engine runs the same kernel faster where that provably gives the same result, the
same memory and the same first error:

* :mod:`~ascreg.engine.loops` decides which ``for`` loops of a ``__simd_vf__`` function may
  run batched, and :mod:`~ascreg.engine.batch` runs such a loop's body once over all of its
  iterations (:mod:`~ascreg.engine.batching` runs each op call by the op's own batching
  rule, :mod:`ascreg._frontend.rules`);
* :mod:`~ascreg.engine.plans` replays the op calls of a batched loop run again;
* :mod:`~ascreg.engine.simt.masked` runs divergent SIMT code in masked form and
  :mod:`~ascreg.engine.simt.batch` runs the blocks of a SIMT launch as wide batches.

The package is loaded on the first ``__simd_vf__`` call, ``__global__`` launch or SIMT launch
(not by ``import ascreg``): the model reaches it through :mod:`ascreg.machine.hook` only.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, uint16_t, __simd_vf__
>>> @__simd_vf__
... def double(dst, src, n):
...     r = Reg.RegTensor[uint16_t]()
...     for i in range(n // 128):
...         Reg.LoadAlign(r, src + i * 128)
...         Reg.Add(r, r, r, Reg.CreateMask[uint16_t]())
...         Reg.StoreAlign(dst + i * 128, r, Reg.CreateMask[uint16_t]())
>>> ub = UnifiedBuffer(); a, b = ub.alloc(uint16_t, 256), ub.alloc(uint16_t, 256)
>>> a.write(np.arange(256)); double(b, a, 256); int(b.read(256)[-1])
510
"""

from __future__ import annotations

import functools

from ascreg.engine import batching, groups, loops
from ascreg.engine.simt import batch as simt_batch
from ascreg.engine.simt import blocks as simt_blocks
from ascreg.engine.simt import masked
from ascreg.machine import hook


class Engine:
    """The engine's entry points, as the machine model and the front ends call them.

    Examples
    --------
    >>> hook.engine().vf is loops.batched
    True
    """

    vf = staticmethod(loops.batched)
    """``vf(func)``: the runner of a ``__simd_vf__`` function (its batchable loops rewritten)."""
    vec_scoped = staticmethod(functools.partial(loops.batched, scoped=True))
    """``vec_scoped(func)``: device code with its ``with __VEC_SCOPE__:`` loops rewritten."""
    explain = staticmethod(loops.explain)
    """``explain(func)``: each loop's decision."""
    batched = staticmethod(batching.batched)
    """``batched(op, impl, args, kwargs)``: an op call inside a batched loop."""
    masked_version = staticmethod(masked.masked_version)
    """The masked form of a SIMT function (divergent control flow run vectorised)."""
    copying_version = staticmethod(masked.copying_version)
    """The copy-on-assignment form of a SIMT function (the per-thread tier's)."""
    why_not_rewritten = staticmethod(masked.why_not_rewritten)
    """Why a SIMT function cannot run in masked form, or None."""
    tell_once = staticmethod(masked.tell_once)
    """Log a message once per key (the SIMT fallbacks)."""
    run_block_batches = staticmethod(simt_batch.run_block_batches)
    """Run the leading blocks of a SIMT-only vector kernel in batches."""
    run_simt_blocks = staticmethod(simt_blocks.run_simt_blocks)
    """Run the blocks of a pure SIMT launch, in batches of blocks where exact."""
    run_simd_groups = staticmethod(groups.run_groups)
    """Run the blocks of a vector launch in groups of blocks where exact."""


hook.install(Engine())
