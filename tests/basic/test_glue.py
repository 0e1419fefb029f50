"""The basic-API glue (ascreg.basic) rejects misuse with ascreg errors."""

from __future__ import annotations

import pytest

from ascreg import GlobalMemory, float32_t, uint16_t
from ascreg.basic import DataCopy, GlobalTensor, Hardware, LocalMemAllocator
from ascreg.errors import AscregError, AscregTypeError
from ascreg.machine.kernel import BlockContext, block


def test_basic_glue_rejects_misuse() -> None:
    with block(BlockContext()):
        with pytest.raises(AscregError, match="positive multiple of 32"):
            t = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
            g = GlobalTensor[float32_t]()
            g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 8))
            DataCopy(t, g, 7)
        with pytest.raises(AscregTypeError, match="GlobalTensor<float>"):
            GlobalTensor[float32_t]().SetGlobalBuffer(GlobalMemory().alloc(uint16_t, 8))
