// ---- base: qualifiers, scalar types, the dtype-rule helpers --------------------------------------
#include <cstddef>
#include <cstdint>
#include <type_traits>

// Address-space and function qualifiers are empty on a CPU: g++ checks everything else.
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __biasbuf__
#define __global__
#define __vector__
#define __cube__
#define __mix__(aic, aiv)
#define __aicore__
#define __simd_vf__
#define __simd_callee__
#define __simt_vf__
#define __simt_callee__
#define __launch_bounds__(n)
#define __VEC_SCOPE__

namespace ascreg_detail {
// IEEE binary16 / bfloat16 <-> float, round to nearest even (IEEE 754-2008 section 4.3.1).
inline float bits_to_float(uint32_t u) { float f; __builtin_memcpy(&f, &u, 4); return f; }
inline uint32_t float_to_bits(float f) { uint32_t u; __builtin_memcpy(&u, &f, 4); return u; }
inline float half_to_float(uint16_t h) {
    uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    if (exp == 0x1F) return bits_to_float(sign | 0x7F800000u | (man << 13));
    if (exp != 0) return bits_to_float(sign | ((exp + 112) << 23) | (man << 13));
    float value = float(man) * (1.0f / 16777216.0f);  // man * 2^-24, exact
    return sign ? -value : value;
}
inline uint16_t float_to_half(float f) {
    uint32_t u = float_to_bits(f), sign = (u >> 16) & 0x8000, exp = (u >> 23) & 0xFF;
    uint32_t man = u & 0x7FFFFF;
    if (exp == 0xFF) return uint16_t(sign | 0x7C00 | (man ? 0x200 | (man >> 13) : 0));
    int e = int(exp) - 127 + 15;
    if (e >= 31) return uint16_t(sign | 0x7C00);
    if (e <= 0) {  // subnormal half (or zero): shift the full significand, round to nearest even
        if (e < -10) return uint16_t(sign);
        uint32_t full = man | 0x800000, shift = uint32_t(14 - e);
        uint32_t result = full >> shift, rest = full & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (result & 1))) result++;
        return uint16_t(sign | result);
    }
    uint32_t result = (uint32_t(e) << 10) | (man >> 13), rest = man & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (result & 1))) result++;  // may carry into inf: right
    return uint16_t(sign | result);
}
inline uint16_t float_to_bfloat16(float f) {
    uint32_t u = float_to_bits(f);
    if ((u & 0x7FFFFFFF) > 0x7F800000) return uint16_t((u >> 16) | 0x40);  // quiet NaN
    u += 0x7FFF + ((u >> 16) & 1);
    return uint16_t(u >> 16);
}
}  // namespace ascreg_detail

struct half {
    uint16_t bits;
    half() = default;
    half(float value) : bits(ascreg_detail::float_to_half(value)) {}
    half(double value) : half(float(value)) {}
    half(int value) : half(float(value)) {}
    half(unsigned value) : half(float(value)) {}
    operator float() const { return ascreg_detail::half_to_float(bits); }
};
struct bfloat16_t {
    uint16_t bits;
    bfloat16_t() = default;
    bfloat16_t(float value) : bits(ascreg_detail::float_to_bfloat16(value)) {}
    bfloat16_t(double value) : bfloat16_t(float(value)) {}
    bfloat16_t(int value) : bfloat16_t(float(value)) {}
    operator float() const { return ascreg_detail::bits_to_float(uint32_t(bits) << 16); }
};
// The 8-bit and packed 4-bit formats: their conversions are declared (syntax checks), not defined.
#define ASCREG_BYTE_TYPE(name)                                                                   \
    struct name {                                                                                \
        uint8_t bits;                                                                            \
        name() = default;                                                                        \
        name(float value);                                                                       \
        operator float() const;                                                                  \
    };
ASCREG_BYTE_TYPE(fp8_e4m3fn_t)
ASCREG_BYTE_TYPE(fp8_e5m2_t)
ASCREG_BYTE_TYPE(fp8_e8m0_t)
ASCREG_BYTE_TYPE(hifloat8_t)
ASCREG_BYTE_TYPE(int4x2_t)
ASCREG_BYTE_TYPE(int4b_t)  // a 4-bit element (cube loads of s4): its pointer type is what counts
ASCREG_BYTE_TYPE(fp4x2_e2m1_t)
ASCREG_BYTE_TYPE(fp4x2_e1m2_t)
#undef ASCREG_BYTE_TYPE
using float32_t = float;

namespace ascreg_detail {
template <class... T> struct combo {};
template <class... C> struct list {};
struct unknown {};
using cstr = const char*;
// The result of a generated declaration that does not say its type: it converts to any type.
struct any {
    template <class X> operator X() const;
    template <class... A> any operator()(A&&...) const;
};
template <class T> inline constexpr bool always_false = false;
template <class Q, class C> struct role_ok : std::bool_constant<std::is_same_v<Q, unknown> || std::is_same_v<Q, C>> {};
template <class Q, class C> struct matches;
template <class... Q, class... C> struct matches<combo<Q...>, combo<C...>>
    : std::bool_constant<(role_ok<Q, C>::value && ...)> {};
template <class Q, class L> struct legal;
template <class Q, class... C> struct legal<Q, list<C...>> : std::bool_constant<(matches<Q, C>::value || ...)> {};
template <class Q, class L> inline constexpr bool legal_v = legal<Q, L>::value;
template <class R, class = void> struct elem { using type = unknown; };
template <class R> struct elem<R, std::void_t<typename R::ActualT>> { using type = typename R::ActualT; };
template <class R> using elem_t = typename elem<std::remove_cv_t<std::remove_reference_t<R>>>::type;
template <class R, class = void> struct is_reg : std::false_type {};
template <class R> struct is_reg<R, std::void_t<typename R::ActualT>> : std::true_type {};
// The first known type of a role: an explicit template argument, else what a register says.
template <class... T> struct pick { using type = unknown; };
template <class T, class... R> struct pick<T, R...> {
    using type = std::conditional_t<std::is_same_v<T, unknown>, typename pick<R...>::type, T>;
};
template <class... T> using pick_t = typename pick<T...>::type;
template <class A, class B> inline constexpr bool agree =
    std::is_same_v<A, unknown> || std::is_same_v<B, unknown> || std::is_same_v<A, B>;
}  // namespace ascreg_detail

namespace AscendC {
struct DefaultType {};
namespace ascreg_given {
template <class T> using known = std::conditional_t<std::is_same_v<T, DefaultType>, ascreg_detail::unknown, T>;
}
}  // namespace AscendC
