"""The dtype-set tables the rows are built from (one name per set the documentation lists).

Examples
--------
>>> from ascreg._spec.dtypes import SHIFT_PAIRS, singles
>>> SHIFT_PAIRS[3][0].cpp_name, SHIFT_PAIRS[3][1].cpp_name
('uint16_t', 'int16_t')
>>> len(singles(*REG_TYPES)) == len(REG_TYPES)
True
"""

from __future__ import annotations

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int4x2_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)

Combos = tuple[tuple[type[Scalar], ...], ...]
"""The legal combinations of a row."""


def singles(*dtypes: type[Scalar]) -> Combos:
    """One one-role combination per dtype: ``Add<T>``."""
    return tuple((d,) for d in dtypes)


def each(*dtypes: type[Scalar], arity: int) -> Combos:
    """One combination per dtype, the dtype in every position: ``max(T, T)``."""
    return tuple((d,) * arity for d in dtypes)


# ==== Reg (AscendC::Reg) ==========================================================================
B8_TYPES = (bool_, int8_t, uint8_t, fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t,
            int4x2_t, fp4x2_e2m1_t, fp4x2_e1m2_t)  # fmt: skip
REG_TYPES = (*B8_TYPES, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
             int64_t, uint64_t)  # fmt: skip
"""Every dtype a RegTensor may hold on dav-3510."""
MASK_TYPES = (int8_t, uint8_t, bool_, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
              float32_t, int64_t, uint64_t)  # fmt: skip
CMP_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t,
             int64_t, uint64_t)  # fmt: skip
SELECT_TYPES = (bool_, uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t,
                float32_t, uint64_t, int64_t)  # fmt: skip
SHIFT_PAIRS = ((int8_t, int8_t), (uint8_t, int8_t), (int16_t, int16_t), (uint16_t, int16_t),
               (int32_t, int32_t), (uint32_t, int32_t), (int64_t, int64_t), (uint64_t, int64_t))  # fmt: skip
SHIFT_DATA = tuple(p[0] for p in SHIFT_PAIRS)
ADD_TYPES = (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, float32_t, bfloat16_t,
             uint64_t, int64_t)  # fmt: skip
PRELU_TYPES = (half, float32_t)
MUL_TYPES = (uint16_t, int16_t, uint32_t, int32_t, half, float32_t, bfloat16_t, uint64_t, int64_t)
MAXMIN_TYPES = ADD_TYPES
LOGIC_TYPES = (bool_, uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t)
NOT_TYPES = (uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, half, float32_t, uint64_t,
             int64_t)  # fmt: skip
DUP_TYPES = REG_TYPES
MULS_TYPES = (int16_t, uint16_t, half, float32_t, int32_t, uint32_t, int64_t, uint64_t)
DIV_TYPES = (int16_t, uint16_t, half, int32_t, uint32_t, float32_t, int64_t, uint64_t)
"""``Div``: the documented types without complex32/complex64 (not emulated)."""
MATH_TYPES = (half, float32_t)
"""``Sqrt``, ``Exp``, ``Ln``, ``Log``, ``Log2``, ``Log10``."""
ABS_TYPES = (int8_t, int16_t, int32_t, half, float32_t, int64_t)
NEG_TYPES = (int8_t, int16_t, int32_t, int64_t, half, float32_t)
RELU_TYPES = (half, int32_t, float32_t, int64_t)
"""``Reg.Relu`` (Relu.md); ``asc_relu`` has the first three."""
INTERLEAVE_TYPES = REG_TYPES  # any b8/b16/b32 type, bool; 64-bit only as RegTraitNumTwo
GATHER_PAIRS = (
    *((d, uint8_t) for d in B8_TYPES),
    *((d, uint16_t) for d in (int16_t, uint16_t, half, bfloat16_t)),
    *((d, uint32_t) for d in (int32_t, uint32_t, float32_t)),
)
"""``Gather<T, U>``: any b8/b16/b32 ``T`` with the unsigned index ``U`` of its width
(kernel_reg_compute_gather_mask_impl.h: SupportBytes<T, 1, 2, 4>, sizeof(T) == sizeof(U))."""
SQUEEZE_TYPES = (int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float32_t)
ARANGE_TYPES = (int8_t, int16_t, int32_t, half, float32_t, int64_t)
REDUCE_COMBOS: dict[str, tuple[tuple[type[Scalar], type[Scalar]], ...]] = {
    "SUM": ((half, half), (float32_t, float32_t), (int32_t, int32_t), (uint32_t, uint32_t),
            (int32_t, int16_t), (uint32_t, uint16_t), (int64_t, int64_t), (uint64_t, uint64_t)),
    "MAX": ((int16_t, int16_t), (uint16_t, uint16_t), (half, half), (int32_t, int32_t),
            (uint32_t, uint32_t), (float32_t, float32_t), (int64_t, int64_t),
            (uint64_t, uint64_t)),
}  # fmt: skip
REDUCE_COMBOS["MIN"] = REDUCE_COMBOS["MAX"]
"""``Reduce<ReduceType, T = dst, U = src>``: the legal (dst, src) pairs of each ReduceType
(spec §7; D/归约计算/Reduce.md tables 3 and 4). The ``Reg.Reduce`` row lists their union."""
C_REDUCE_COMBOS: dict[str, tuple[tuple[type[Scalar], type[Scalar]], ...]] = {
    "SUM": ((int32_t, int16_t), (int32_t, int32_t), (uint32_t, uint16_t), (uint32_t, uint32_t),
            (half, half), (float32_t, float32_t)),
    "MAX": ((uint16_t, uint16_t), (int16_t, int16_t), (half, half), (uint32_t, uint32_t),
            (int32_t, int32_t), (float32_t, float32_t)),
}  # fmt: skip
C_REDUCE_COMBOS["MIN"] = C_REDUCE_COMBOS["MAX"]
"""``asc_reduce_{sum,max,min}`` (dst, src), in the prototypes' order: the ``Reg.Reduce`` pairs
without the 64-bit ones (reduce_compute/asc_reduce_sum.md, asc_reduce_max.md, asc_reduce_min.md)."""
REDUCE_BLOCK_COMBOS: dict[str, tuple[tuple[type[Scalar], type[Scalar]], ...]] = {
    "SUM": ((half, half), (int32_t, int32_t), (int32_t, int16_t), (uint32_t, uint32_t),
            (uint32_t, uint16_t), (float32_t, float32_t)),
    "MAX": ((half, half), (int16_t, int16_t), (uint16_t, uint16_t), (int32_t, int32_t),
            (uint32_t, uint32_t), (float32_t, float32_t)),
}  # fmt: skip
REDUCE_BLOCK_COMBOS["MIN"] = REDUCE_BLOCK_COMBOS["MAX"]
"""``ReduceDataBlock<ReduceType, T = dst, U = src>``: the legal (dst, src) pairs of each
ReduceType (D/归约计算/ReduceDataBlock.md tables 3 and 4; the ``asc_reduce_*_datablock``
prototypes list the same pairs). No 64-bit types."""
PACK_COMBOS: Combos = ((uint8_t, int16_t), (uint8_t, uint16_t), (uint16_t, int32_t),
                       (uint16_t, uint32_t), (uint32_t, int64_t), (uint32_t, uint64_t))  # fmt: skip
"""``Pack<T = dst, U = src>`` (D/数据压缩/Pack.md table 3): the low half of each lane's bits."""
UNPACK_COMBOS: Combos = ((int16_t, int8_t), (uint16_t, uint8_t), (int32_t, int16_t),
                         (uint32_t, uint16_t), (int64_t, int32_t), (uint64_t, uint32_t))  # fmt: skip
"""``UnPack<T = dst, U = src>`` (D/数据压缩/UnPack.md table 3): sign or zero extension."""
C_PACK: Combos = ((uint8_t, uint16_t), (uint16_t, uint32_t), (bool_, bool_))
"""``asc_pack_to_low`` / ``asc_pack_to_high`` (dst, src); ``bool_`` is the vector_bool form."""
C_UNPACK: Combos = ((uint16_t, uint8_t), (int16_t, int8_t), (uint32_t, uint16_t),
                    (int32_t, int16_t), (bool_, bool_))  # fmt: skip
"""``asc_unpack_lower`` / ``asc_unpack_upper`` (dst, src); ``bool_`` is the vector_bool form."""
MASK_GEN_TYPES = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
"""``MaskGenWithRegTensor<T, offset>``: b16 and b32 source types."""
PAIR_REDUCE_TYPES = (half, float32_t)
"""``PairReduceElem`` / ``asc_pair_reduce_sum``: half and float."""

# ==== C API (asc_*) ===============================================================================
# Type sets per function as declared in include/c_api/reg_compute/reg_{load,store,vector}.h.
C_B8 = (int8_t, uint8_t, fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t, int4x2_t, fp4x2_e2m1_t,
        fp4x2_e1m2_t)  # fmt: skip
C_B16 = (int16_t, uint16_t, half, bfloat16_t)
C_B32 = (int32_t, uint32_t, float32_t)
C_B64 = (int64_t, uint64_t)
C_VECTOR_TYPES = (*C_B8, *C_B16, *C_B32, *C_B64)
"""Every element type of a C API ``vector_*`` register."""
C_BASIC = (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
C_B8_TO_B32 = (*C_B8, *C_B16, *C_B32)
C_FP8_BITS = (fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t)

C_LOAD_FAMILY: dict[str, tuple[type[Scalar], ...]] = {
    "": (*C_VECTOR_TYPES, bool_),
    "_brc": C_B8_TO_B32,
    "_brc_elem": C_B8_TO_B32,
    "_brc_datablock": C_B8_TO_B32,
    "_brc_elem2datablock": (*C_B16, *C_B32),
    "_upsample": (*C_B8, *C_B16, bool_),
    "_downsample": (*C_B8, *C_B16, bool_),
    "_unpack": C_B8_TO_B32,
    "_unpack4": C_B8,
    "_deintlv": C_B8_TO_B32,
}
"""``asc_loadalign<suffix>`` (and its ``_postupdate`` twin): legal element types."""
C_STORE_FAMILY: dict[str, tuple[type[Scalar], ...]] = {
    "": (*C_B8_TO_B32, bool_),
    "_postupdate": (int8_t, uint8_t, *C_FP8_BITS, *C_B16, *C_B32, bool_),
    "_1st": C_B8_TO_B32,
    "_1st_postupdate": C_BASIC,
    "_pack": (*C_B16, *C_B32, *C_B64, bool_),
    "_pack_postupdate": (*C_B16, *C_B32, *C_B64, bool_),
    "_pack_quarter": (int32_t, uint32_t, float32_t),
    "_pack_quarter_postupdate": (int32_t, uint32_t, float32_t),
    "_intlv": (*C_B8, *C_B16, int32_t, uint32_t),
}
"""``asc_storealign<suffix>``: legal element types."""
C_SHIFT_PAIRS = SHIFT_PAIRS[:6]
C_ADD_TYPES = (uint8_t, int8_t, uint16_t, int16_t, half, float32_t, int32_t, uint32_t, bfloat16_t)
C_BINARY: dict[str, tuple[type[Scalar], ...]] = {
    "add": C_ADD_TYPES,
    "sub": C_ADD_TYPES,
    "mul": (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t),
    "max": (uint8_t, int8_t, uint16_t, int16_t, int32_t, uint32_t, float32_t, half, bfloat16_t),
    "min": (int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, half, bfloat16_t, float32_t),
    "prelu": (half, float32_t),
    "div": (half, float32_t, int16_t, uint16_t, int32_t, uint32_t),
}
"""``void asc_<op>(vector_T& dst, vector_T src0, vector_T src1, vector_bool mask)``: the element
types of each element-wise binary arithmetic function (``reg_compute/reg_vector.h``)."""
C_UNARY: dict[str, tuple[type[Scalar], ...]] = {
    "exp": (half, float32_t),
    "ln": (half, float32_t),
    "sqrt": (half, float32_t),
}
"""``void asc_<op>(vector_T& dst, vector_T src, vector_bool mask)``: the element types of each
element-wise unary arithmetic function (``reg_compute/reg_vector.h``)."""
C_SIGN: dict[str, tuple[type[Scalar], ...]] = {
    "abs": (int8_t, int16_t, int32_t, half, float32_t),
    "neg": (int8_t, int16_t, int32_t, half, float32_t),
    "relu": (half, int32_t, float32_t),
}
"""``void asc_<op>(vector_T& dst, vector_T src, vector_bool mask)``: the exact (sign-handling)
unary functions ``asc_abs``, ``asc_neg`` and ``asc_relu`` (``reg_compute/reg_vector.h``)."""
C_SCALAR: dict[str, tuple[type[Scalar], ...]] = {
    "add": (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t),
    "mul": (int16_t, uint16_t, half, int32_t, uint32_t, float32_t),
    "max": (int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, half, float32_t, bfloat16_t),
    "min": (int32_t, uint32_t, int16_t, uint16_t, int8_t, uint8_t, float32_t, half),
}
"""``void asc_<op>_scalar(vector_T& dst, vector_T src, T value, vector_bool mask)``: the element
types of each binary function against a scalar (``reg_compute/reg_vector.h``)."""
C_ARANGE = (int8_t, int16_t, int32_t, half, float32_t)
"""``asc_arange`` / ``asc_arange_descend(vector_T& dst, T value)``: the index element types."""
C_LOGIC: dict[str, tuple[type[Scalar], ...]] = {
    "and": (uint8_t, int8_t, fp8_e4m3fn_t, fp8_e5m2_t, uint16_t, int16_t, half, bfloat16_t,
            uint32_t, int32_t, float32_t, bool_),
    "or": (int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float32_t, bool_),
    "xor": (int32_t, uint32_t, uint16_t, int16_t, uint8_t, int8_t, bool_),
    "not": (uint8_t, int8_t, uint16_t, int16_t, half, uint32_t, int32_t, float32_t, bool_),
}  # fmt: skip
"""``asc_and/or/xor/not``: vector element types, plus ``bool`` for the ``vector_bool`` form."""
C_COPY_MASK_PART = (uint16_t, uint32_t)
"""``asc_copy(vector_bool& dst, vector_T src, int16_t part)``: the source types (a b16 / b32
block of the register, each bit repeated 2 / 4 times)."""
C_UNALIGNED = (*C_B8, *C_B16, *C_B32, int64_t)
"""Element types of the unaligned accesses (reg_load.h / reg_store.h declare no uint64_t form;
a few ``asc_store(dst, src, count)`` overloads, such as half's, are missing from the header and
are accepted here)."""
C_SELECT = (bool_, uint8_t, int8_t, fp8_e4m3fn_t, hifloat8_t, fp8_e5m2_t, uint16_t, int16_t, half,
            bfloat16_t, uint32_t, int32_t, float32_t)  # fmt: skip

C_GATHER = (
    *((d, uint8_t) for d in (int8_t, uint8_t, hifloat8_t, fp8_e8m0_t, fp8_e5m2_t, fp8_e4m3fn_t)),
    *((d, uint16_t) for d in (int16_t, uint16_t, half, bfloat16_t)),
    *((d, uint32_t) for d in (int32_t, uint32_t)),
)
"""``asc_gather(vector_T& dst, vector_T src, vector_U index)``: the register form's (T, U)
pairs (reg_load/asc_gather.md lists no float; the UB form is not emulated)."""
C_SQUEEZE = (int8_t, uint8_t, hifloat8_t, fp8_e8m0_t, fp8_e5m2_t, fp8_e4m3fn_t, int16_t, uint16_t,
             half, bfloat16_t, int32_t, uint32_t, float32_t)  # fmt: skip
"""``asc_squeeze(vector_T& dst, vector_T src, vector_bool mask)``: the element types."""

# ==== Compound and carry arithmetic (Reg 复合计算, AddC/SubC/Mull; their C twins) ===============
ABS_SUB_TYPES = (half, float32_t, int64_t)
"""``AbsSub``: dst, src0 and src1 of one type."""
MUL_ADD_DST_TYPES = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t, int64_t,
                     uint64_t)  # fmt: skip
"""``MulAddDst`` (``Mula``): ``dst = src0 * src1 + dst``."""
MUL_DST_ADD_TYPES = (half, bfloat16_t, float32_t)
"""``MulDstAdd``: the page lists (half, half, float); the implementation static_asserts one
type U for all three registers (half, float, bfloat16_t), which is what C++ compiles."""
AXPY_TYPES = (half, float32_t, int64_t, uint64_t)
"""``Axpy(dst, src, scalar, mask)``: dst, src and the scalar of one type."""
EXP_SUB_COMBOS: Combos = ((float32_t, half), (float32_t, float32_t))
"""``ExpSub<T, U>``: (dst T, sources U)."""
CARRY_TYPES = (int32_t, uint32_t)
"""``AddC``, ``SubC``, ``Mull`` and the carry overloads of ``Add``/``Sub``."""
C_COMPOUND_TYPES = (half, float32_t)
"""``asc_abs_sub``, ``asc_axpy``, ``asc_madd``."""
C_CARRY_TYPES = (uint32_t,)
"""``asc_addc``, ``asc_subc`` and the carry overloads of ``asc_add``/``asc_sub`` (the header
declares uint32_t only)."""
C_MULL_TYPES = (uint32_t, int32_t)
"""``asc_mull``."""
# ==== data movement and rearrangement (issues 10 and 11: UB gathers, scatter, histograms) =======
GATHER_UB_COMBOS: Combos = (
    (int16_t, int8_t, uint16_t), (int16_t, int16_t, uint16_t), (uint16_t, uint8_t, uint16_t),
    (uint16_t, uint16_t, uint16_t), (half, half, uint16_t), (bfloat16_t, bfloat16_t, uint16_t),
    (int32_t, int32_t, uint32_t), (uint32_t, uint32_t, uint32_t), (float32_t, float32_t, uint32_t),
    (int64_t, int64_t, uint32_t), (int64_t, int64_t, uint64_t), (uint64_t, uint64_t, uint32_t),
    (uint64_t, uint64_t, uint64_t),
)  # fmt: skip
"""``Gather<T0 = dst, T1 = src, T2 = index>(dst, __ubuf__ T1* base, index, mask)``, the UB form
(Reg数据搬入/离散搬入（Gather）.md table 3): a b8 source lands zero-extended in b16 lanes."""
SCATTER_PAIRS: Combos = (
    (int8_t, uint16_t), (uint8_t, uint16_t), (int16_t, uint16_t), (uint16_t, uint16_t),
    (half, uint16_t), (bfloat16_t, uint16_t), (int32_t, uint32_t), (uint32_t, uint32_t),
    (float32_t, uint32_t), (int64_t, uint32_t), (int64_t, uint64_t), (uint64_t, uint32_t),
    (uint64_t, uint64_t),
)  # fmt: skip
"""``Scatter<T = data, U = index>`` (Reg数据搬出/离散搬出（Scatter）.md table 3)."""
GATHERB_PAIRS: Combos = tuple((d, uint32_t) for d in REG_TYPES if d is not bool_)
"""``GatherB<T>(dst, base, index, mask)``: any b8/b16/b32/b64 ``T``; the index is uint32_t."""
HISTOGRAM_PAIRS: Combos = ((uint8_t, uint16_t),)
"""``Histograms<T = src, U = dst, mode, type>``: uint8 values counted in uint16 lanes."""
UNSQUEEZE_TYPES = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t)
"""``Unsqueeze`` / ``asc_unsqueeze`` (the older ``PrefixSum``)."""
MOVE_MASK_TYPES = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
"""``MoveMask<T>``: b16 and b32 layouts."""
C_GATHER_UB: Combos = (
    (int16_t, int8_t, uint16_t), (uint16_t, uint8_t, uint16_t),
    *((d, d, uint16_t) for d in (hifloat8_t, fp8_e8m0_t, fp8_e5m2_t, fp8_e4m3fn_t)),
    *((d, d, uint16_t) for d in (int16_t, uint16_t, half, bfloat16_t)),
    *((d, d, uint32_t) for d in (int32_t, uint32_t, float32_t)),
    *((d, d, uint32_t) for d in (int16_t, uint16_t, half, bfloat16_t)),
)  # fmt: skip
"""``asc_gather(vector_T0& dst, __ubuf__ T1* src, vector_U index, mask)``: (dst, src, index)."""
C_SCATTER: Combos = ((int8_t, uint16_t), (uint8_t, uint16_t), (int16_t, uint16_t),
                     (uint16_t, uint16_t), (int32_t, uint32_t), (uint32_t, uint32_t),
                     (bfloat16_t, uint16_t), (half, uint16_t), (float32_t, uint32_t))  # fmt: skip
"""``asc_scatter(__ubuf__ T* dst, vector_T src, vector_U index, mask)``: (T, U)."""
C_GATHER_BLOCK = (int4x2_t, int8_t, uint8_t, fp4x2_e2m1_t, fp4x2_e1m2_t, hifloat8_t, fp8_e8m0_t,
                  fp8_e5m2_t, fp8_e4m3fn_t, *C_B16, *C_B32, *C_B64)  # fmt: skip
"""``asc_gather_datablock(vector_T& dst, __ubuf__ T* src, vector_uint32_t index[, mask])``."""
C_INTERLEAVE = (int8_t, uint8_t, hifloat8_t, fp8_e8m0_t, fp8_e5m2_t, fp8_e4m3fn_t, *C_B16, *C_B32)
"""``asc_intlv`` / ``asc_deintlv`` on vector registers (no 64-bit form)."""

# ==== SIMT device functions =======================================================================
SIMT_SHFL_TYPES = (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t)
"""Value types of ``asc_shfl*`` (``half2``/``bfloat16x2_t`` do not exist in ascreg)."""
SIMT_REDUCE_TYPES = (int32_t, uint32_t, float32_t, half)
SIMT_ATOMIC_TYPES: dict[str, tuple[type[Scalar], ...]] = {
    "add": (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t),
    "sub": (int32_t, uint32_t, float32_t, int64_t, uint64_t),
    "exch": (int32_t, uint32_t, float32_t, int64_t, uint64_t),
    "cas": (int32_t, uint32_t, float32_t, int64_t, uint64_t),
    "max": (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t),
    "min": (int32_t, uint32_t, float32_t, int64_t, uint64_t, half, bfloat16_t),
    "inc": (uint32_t, uint64_t),
    "dec": (uint32_t, uint64_t),
    "and": (int32_t, uint32_t, int64_t, uint64_t),
    "or": (int32_t, uint32_t, int64_t, uint64_t),
    "xor": (int32_t, uint32_t, int64_t, uint64_t),
}
"""``T asc_atomic_<op>(T* address, T val)`` (``cas``: ``T compare, T val``): element types."""
SIMT_ACCESS_TYPES = (int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t,
                     float32_t, half, bfloat16_t)  # fmt: skip
"""Element types of the cache-hinted ``asc_ldcg/ldca/stcg/stwt`` (the scalar overloads)."""
