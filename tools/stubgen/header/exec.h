// ---- ASCREG_EXEC: a CPU implementation of the ops the seed examples use -------------------------
// Written from the spec (docs/semantics.md, ../shared/spec/reg_api.md), not from ascreg's Python:
//   UpdateMask<T>(n): the first min(n, VL/sizeof(T)) lanes, then n -= that (saturating at 0);
//   a b16/b32 mask bit for lane i is bit i*sizeof(T), the other bits are 0;
//   LoadAlign reads a whole register; StoreAlign writes the lanes the mask selects;
//   Compare: the predicate AND the mask (IEEE for floats: NaN compares false except NE);
//   Select: mask ? src0 : src1, lane by lane; shifts: logical for unsigned, arithmetic for signed,
//   a count >= the width gives 0 (-1 for a negative arithmetic shift), masked-off lanes 0;
//   __byte_perm(x, y, s): byte n of the result is byte (s >> 4n) & 7 of (y << 32) | x.
#ifdef ASCREG_EXEC
namespace ascreg_exec {
using AscendC::Reg::MaskReg;
inline bool mask_bit(const vector_bool& m, unsigned i) { return (m.word[i >> 6] >> (i & 63)) & 1u; }
inline void set_mask_bit(vector_bool& m, unsigned i) { m.word[i >> 6] |= uint64_t(1) << (i & 63); }
template <class R> constexpr unsigned lanes_of = sizeof(R::lane) / sizeof(R::lane[0]);
template <class R> using lane_t = std::remove_cv_t<std::remove_reference_t<decltype(R::lane[0])>>;
template <class T> constexpr unsigned step_of = sizeof(T) > 4 ? 4 : unsigned(sizeof(T));

template <class T> inline MaskReg first_lanes(uint32_t count) {
    MaskReg mask{};
    unsigned lanes = 256 / sizeof(T);
    for (unsigned i = 0; i < lanes && i < count; ++i) set_mask_bit(mask, i * step_of<T>);
    return mask;
}
template <typename T, const AscendC::Reg::RegTrait& trait> MaskReg UpdateMask(uint32_t& count) {
    static_assert(trait.REG_NUM == 1 && sizeof(T) <= 4, "ASCREG_EXEC: UpdateMask of b8/b16/b32 only");
    uint32_t lanes = 256 / sizeof(T);
    MaskReg mask = first_lanes<T>(count);
    count = count < lanes ? 0 : count - lanes;
    return mask;
}
template <typename T, auto pattern, const AscendC::Reg::RegTrait& trait> MaskReg CreateMask() {
    static_assert(pattern == AscendC::Reg::MaskPattern::ALL, "ASCREG_EXEC: CreateMask<T, ALL> only");
    return first_lanes<T>(256);
}
template <class D> constexpr bool dist_norm(D dist) {
    if constexpr (std::is_same_v<D, AscendC::Reg::LoadDist>) return dist == AscendC::Reg::LoadDist::DIST_NORM;
    else if constexpr (std::is_same_v<D, AscendC::Reg::StoreDist>) return dist == AscendC::Reg::StoreDist::DIST_NORM;
    else return false;
}
template <typename T, auto... dist, typename U> void LoadAlign(U& dst, __ubuf__ T* src) {
    static_assert(sizeof...(dist) == 1 && (dist_norm(dist) && ...), "ASCREG_EXEC: LoadAlign<T, DIST_NORM> only");
    __builtin_memcpy(dst.lane, src, sizeof(dst.lane));
}
template <typename T, auto... dist, typename U> void StoreAlign(__ubuf__ T* dst, U& src, MaskReg& mask) {
    static_assert(sizeof...(dist) == 1 && (dist_norm(dist) && ...), "ASCREG_EXEC: StoreAlign<T, DIST_NORM> only");
    using L = lane_t<U>;
    for (unsigned i = 0; i < lanes_of<U>; ++i)
        if (mask_bit(mask, i * step_of<L>)) dst[i] = src.lane[i];
}
template <class L> bool compare(AscendC::CMPMODE mode, L a, L b) {
    using V = std::conditional_t<std::is_class_v<L>, float, L>;  // half, bfloat16_t compare as float
    V x = V(a), y = V(b);
    switch (mode) {
        case AscendC::CMPMODE::EQ: return x == y;
        case AscendC::CMPMODE::NE: return x != y;
        case AscendC::CMPMODE::LT: return x < y;
        case AscendC::CMPMODE::GT: return x > y;
        case AscendC::CMPMODE::LE: return x <= y;
        case AscendC::CMPMODE::GE: return x >= y;
    }
    return false;
}
template <typename T, auto mode, typename U> void Compare(MaskReg& dst, U& src0, U& src1, MaskReg& mask) {
    using L = lane_t<U>;
    MaskReg out{};
    for (unsigned i = 0; i < lanes_of<U>; ++i)
        if (mask_bit(mask, i * step_of<L>) && compare<L>(mode, src0.lane[i], src1.lane[i])) set_mask_bit(out, i * step_of<L>);
    dst = out;
}
template <typename T, typename U> void Select(U& dst, U& src0, U& src1, MaskReg& mask) {
    using L = lane_t<U>;
    for (unsigned i = 0; i < lanes_of<U>; ++i) dst.lane[i] = mask_bit(mask, i * step_of<L>) ? src0.lane[i] : src1.lane[i];
}
template <class L, class S> L shift_right(L value, S count) {
    constexpr int bits = int(sizeof(L)) * 8;
    int64_t n = int64_t(count);
    if constexpr (std::is_signed_v<L>) {
        if (n >= bits) return value < 0 ? L(-1) : L(0);
        return L(value >> n);
    } else {
        return n >= bits ? L(0) : L(value >> n);
    }
}
template <class Dst, class Src, class Shift> void shift_right_lanes(Dst& dst, const Src& src, const Shift& shift, const MaskReg& mask) {
    using L = lane_t<Src>;
    for (unsigned i = 0; i < lanes_of<Src>; ++i)
        dst.lane[i] = mask_bit(mask, i * step_of<L>) ? shift_right(src.lane[i], shift.lane[i]) : L(0);
}
template <typename T0, typename T1, auto mode, typename U0, typename U1>
void ShiftRight(U0& dst, U0& src, U1& count, MaskReg& mask) {
    static_assert(mode == AscendC::Reg::MaskMergeMode::ZEROING, "shifts are ZEROING only");
    shift_right_lanes(dst, src, count, mask);
}
// C API twins.
inline vector_bool asc_create_mask_b16(AscendC::Reg::MaskPattern pattern) {
    return pattern == AscendC::Reg::MaskPattern::ALL ? first_lanes<uint16_t>(256) : vector_bool{};
}
template <class V, class P> void asc_loadalign(V& dst, P* src) { __builtin_memcpy(dst.lane, src, sizeof(dst.lane)); }
template <class P, class V> void asc_storealign(P* dst, V src, vector_bool mask) {
    using L = lane_t<V>;
    for (unsigned i = 0; i < lanes_of<V>; ++i)
        if (mask_bit(mask, i * step_of<L>)) dst[i] = src.lane[i];
}
template <class V, class S> V asc_shiftright(V src, S shift, vector_bool mask) {
    V dst;
    shift_right_lanes(dst, src, shift, mask);
    return dst;
}
template <class V, class S> void asc_shiftright(V& dst, V src, S shift, vector_bool mask) { shift_right_lanes(dst, src, shift, mask); }
inline uint32_t __byte_perm(uint32_t x, uint32_t y, uint32_t s) {
    uint64_t joined = (uint64_t(y) << 32) | x;
    uint32_t result = 0;
    for (unsigned n = 0; n < 4; ++n) result |= uint32_t((joined >> (((s >> (4 * n)) & 7u) * 8)) & 0xFFu) << (8 * n);
    return result;
}
}  // namespace ascreg_exec
#endif  // ASCREG_EXEC
