// ---- register, pointer-adjacent and kernel types (hand-written: no row describes a type) --------

// C API registers. A C API vector is 256 bytes of lanes; vector casts between them reinterpret.
template <class T, unsigned N> struct ascreg_vector {
    using ActualT = T;
    T lane[N];
    template <class V, class = std::enable_if_t<sizeof(V) == sizeof(T) * N && !std::is_same_v<V, ascreg_vector>>>
    explicit operator V() const { V out; __builtin_memcpy(&out, this, sizeof(V)); return out; }
};
struct vector_bool {
    uint64_t word[4];
    template <class V, class = std::enable_if_t<sizeof(V) == 32 && !std::is_same_v<V, vector_bool>>>
    explicit operator V() const { V out; __builtin_memcpy(&out, this, sizeof(V)); return out; }
};
struct vector_address { uint32_t offset[4]; };
struct vector_align { uint8_t bytes[32]; uint32_t count; };
using addr_reg = vector_address;
using vector_load_unalign = vector_align;
using vector_store_unalign = vector_align;
union asc_store_atomic_config { uint32_t config; };
union asc_ndim_pad_count_config { uint64_t config; };
union asc_fill_value_config { uint64_t config; };
union asc_l13d_fmatrix_config { uint64_t config; };
union asc_load3d_v2_config { uint64_t config; };

namespace AscendC {
namespace Reg {
struct RegTrait { int REG_NUM = 1; };
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    using ActualT = T;
    static constexpr int REG_NUM = regTrait.REG_NUM;
    static constexpr unsigned LANES = 256 / sizeof(T) * regTrait.REG_NUM;
    T lane[LANES];
};
using MaskReg = vector_bool;
using AddrReg = vector_address;
using UnalignReg = vector_align;
using UnalignRegForLoad = vector_align;
using UnalignRegForStore = vector_align;
using AscendC::CMPMODE;
using AscendC::ReduceType;
using AscendC::RoundMode;
using AscendC::SpecialPurposeReg;
struct CastTrait {
    RegLayout layoutMode = RegLayout::ZERO;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait castTrait = {};
struct DivSpecificMode { MaskMergeMode mrgMode; bool precisionMode; DivAlgo algo; };
struct SqrtSpecificMode { MaskMergeMode mrgMode; bool precisionMode; SqrtAlgo algo; };
struct ExpSpecificMode { MaskMergeMode mrgMode; ExpAlgo algo; };
using LnSpecificMode = ExpSpecificMode;
using LogSpecificMode = ExpSpecificMode;
using Log2SpecificMode = ExpSpecificMode;
using Log10SpecificMode = ExpSpecificMode;
using LnAlgo = ExpAlgo;
using LogAlgo = ExpAlgo;
using Log2Algo = ExpAlgo;
using Log10Algo = ExpAlgo;
}  // namespace Reg
namespace MicroAPI = Reg;

// The complex element types (辅助数据结构/complex32-complex64.md): the struct and its two aliases.
template <class T> struct Complex {
    T real;
    T imag;
    constexpr Complex(T r = T(), T i = T()) : real(r), imag(i) {}
};

constexpr uint32_t VECTOR_REG_WIDTH = 256;
constexpr uint32_t ONE_BLK_SIZE = 32;
__aicore__ inline constexpr uint32_t GetVecLen() { return 256; }
}  // namespace AscendC
using complex32 = AscendC::Complex<half>;
using complex64 = AscendC::Complex<float>;

// SIMT: launch geometry, the built-in index variables, vector and pair types.
struct dim3 {
    uint32_t x, y, z;
    constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
};
inline dim3 threadIdx{0, 0, 0};
inline dim3 blockIdx{0, 0, 0};
inline dim3 blockDim{1, 1, 1};
inline dim3 gridDim{1, 1, 1};
constexpr int32_t warpSize = 32;
// C API built-in variables of the running block.
inline int64_t block_idx = 0;
inline int64_t block_num = 1;
