"""The SIMT machine: thread groups as numpy lanes, the two-tier block engine, warp rendezvous.

:mod:`~ascreg.machine.simt.lanes` (thread-varying values), :mod:`~ascreg.machine.simt.rendezvous`
(how a warp call meets its lanes) and :mod:`~ascreg.machine.simt.engine` (blocks, threads,
launches). The device functions a kernel calls (``__byte_perm``, ``asc_shfl`` ...) are the front
end :mod:`ascreg.simt`, which re-exports the public names of this package.
"""
