// Independent C++ implementation of the documented Reg API integer formulas, used as a golden
// reference by tests/reg/test_cpp_golden.py. It is written from the spec digest (reg_api.md §2, §4, §6),
// not from the Python implementation.
//
// One query per input line, one answer per output line:
//   shl <bits> <s|u> <x> <n>      ShiftLeft(s) lane: x is the bit pattern (unsigned decimal),
//   shr <bits> <s|u> <x> <n>      n the (non-negative) count; prints the result bit pattern.
//   cmp <MODE> <type> <a> <b>     Compare lane on bit patterns; prints 0 or 1.
//                                 type: u8 i8 u16 i16 u32 i32 u64 i64 f16 bf16 f32
//   pat <bytes> <trait> <code>    CreateMask<T with sizeof(T)=bytes, pattern code, trait 1|2>;
//                                 prints the 256 mask bits as a 0/1 string (bit 0 first).
//   upd <bytes> <trait> <count>   UpdateMask: prints "<256 bits> <new count>".
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

static u64 width_mask(int bits) { return bits == 64 ? ~u64{0} : ((u64{1} << bits) - 1); }

// ---- shifts, 8/16/32 bits: direct formulas -------------------------------------------------

static u64 shl_narrow(int bits, bool is_signed, u64 x, long n) {
    if (n >= bits) return 0;  // amount >= width gives 0 (signed left too)
    u64 shifted = (x << n) & width_mask(bits);
    if (!is_signed) return shifted;
    u64 sign = u64{1} << (bits - 1);
    return (x & sign) | (shifted & ~sign);  // the sign bit is kept, the bit below it dropped
}

static u64 shr_narrow(int bits, bool is_signed, u64 x, long n) {
    if (!is_signed) return n >= bits ? 0 : x >> n;
    i64 v = static_cast<i64>(x << (64 - bits)) >> (64 - bits);  // sign-extend
    if (n >= bits) return v < 0 ? width_mask(bits) : 0;
    return static_cast<u64>(v >> n) & width_mask(bits);
}

// ---- shifts, 64 bits: the software emulation on two 32-bit words (reg[0] low, reg[1] high) --

static u64 join(u32 lo, u32 hi) { return (u64{hi} << 32) | lo; }

static u64 shl64(bool is_signed, u64 x, long n) {
    if (n >= 64) return 0;
    u32 lo = static_cast<u32>(x), hi = static_cast<u32>(x >> 32);
    u32 rlo, rhi;
    if (n == 0) {
        rlo = lo;
        rhi = hi;
    } else if (n < 32) {
        rlo = lo << n;
        rhi = (hi << n) | (lo >> (32 - n));
    } else {
        rlo = 0;
        rhi = lo << (n - 32);
    }
    if (is_signed) {  // the high word is shifted with the sign-preserving signed shift
        u32 sign = 0x80000000u;
        rhi = (hi & sign) | (rhi & ~sign);
    }
    return join(rlo, rhi);
}

static u64 shr64(bool is_signed, u64 x, long n) {
    u32 lo = static_cast<u32>(x), hi = static_cast<u32>(x >> 32);
    i32 shi = static_cast<i32>(hi);
    u32 fill = (is_signed && shi < 0) ? 0xFFFFFFFFu : 0;
    if (n >= 64) return join(fill, fill);
    if (n == 0) return x;
    if (n < 32) {
        u32 rlo = (lo >> n) | (hi << (32 - n));
        u32 rhi = is_signed ? static_cast<u32>(shi >> n) : hi >> n;
        return join(rlo, rhi);
    }
    u32 rlo = is_signed ? static_cast<u32>(shi >> (n - 32)) : hi >> (n - 32);
    return join(rlo, fill);
}

// ---- compare ------------------------------------------------------------------------------

static float bits_to_float(const std::string& type, u64 bits) {
    if (type == "f32") {
        u32 b = static_cast<u32>(bits);
        float f;
        std::memcpy(&f, &b, sizeof f);
        return f;
    }
    if (type == "bf16") {  // bf16 is the top half of a float
        u32 b = static_cast<u32>(bits) << 16;
        float f;
        std::memcpy(&f, &b, sizeof f);
        return f;
    }
    // f16: decode sign / 5-bit exponent / 10-bit mantissa by hand
    int sign = (bits >> 15) & 1, exp = (bits >> 10) & 0x1F, man = bits & 0x3FF;
    double v;
    if (exp == 0x1F) {
        v = man ? NAN : INFINITY;
    } else if (exp == 0) {
        v = std::ldexp(static_cast<double>(man), -24);
    } else {
        v = std::ldexp(static_cast<double>(man | 0x400), exp - 25);
    }
    return static_cast<float>(sign ? -v : v);
}

template <typename V>
static bool predicate(const std::string& mode, V a, V b) {
    if (mode == "EQ") return a == b;
    if (mode == "NE") return a != b;
    if (mode == "GT") return a > b;
    if (mode == "GE") return a >= b;
    if (mode == "LT") return a < b;
    return a <= b;  // LE
}

// b64 compares as the TraitTwo software path does: EQ = both words equal, NE = either differs,
// ordering = the high words (signed for int64) unless they are equal, then the low words unsigned.
static bool compare64(const std::string& mode, bool is_signed, u64 a, u64 b) {
    u32 alo = static_cast<u32>(a), ahi = static_cast<u32>(a >> 32);
    u32 blo = static_cast<u32>(b), bhi = static_cast<u32>(b >> 32);
    if (mode == "EQ") return alo == blo && ahi == bhi;
    if (mode == "NE") return alo != blo || ahi != bhi;
    bool low = predicate(mode, alo, blo);
    bool high = is_signed ? predicate(mode, static_cast<i32>(ahi), static_cast<i32>(bhi))
                          : predicate(mode, ahi, bhi);
    return ahi == bhi ? low : high;
}

static bool compare(const std::string& mode, const std::string& type, u64 a, u64 b) {
    if (type == "u64" || type == "i64") return compare64(mode, type == "i64", a, b);
    if (type[0] == 'f' || type == "bf16")
        return predicate(mode, bits_to_float(type, a), bits_to_float(type, b));
    int bits = std::stoi(type.substr(1));
    if (type[0] == 'u') return predicate(mode, a, b);
    i64 sa = static_cast<i64>(a << (64 - bits)) >> (64 - bits);
    i64 sb = static_cast<i64>(b << (64 - bits)) >> (64 - bits);
    return predicate(mode, sa, sb);
}

// ---- masks --------------------------------------------------------------------------------

struct Geometry {
    int lanes, stride;
};

static Geometry geometry(int bytes, int trait) {
    if (bytes == 8 && trait == 2) return {64, 4};  // TraitTwo b64: b32 format over 64 lanes
    return {256 / bytes, bytes};
}

static std::string to_string(const bool (&bits)[256]) {
    std::string s(256, '0');
    for (int k = 0; k < 256; ++k) s[k] = bits[k] ? '1' : '0';
    return s;
}

static std::string pattern(int bytes, int trait, int code) {
    Geometry g = geometry(bytes, trait);
    static const int vl_counts[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128};
    if (bytes == 8 && trait == 1) {  // GetMaskPattern remaps H -> VL16 and Q -> VL8
        if (code == 12) code = 6;
        if (code == 13) code = 5;
    }
    bool bits[256] = {};
    for (int i = 0; i < g.lanes; ++i) {
        bool on;
        if (code == 0) on = true;
        else if (code == 15) on = false;
        else if (code >= 1 && code <= 9) on = i < vl_counts[code];
        else if (code == 10) on = i % 3 == 0;
        else if (code == 11) on = i % 4 == 0;
        else if (code == 12) on = i < g.lanes / 2;
        else on = i < g.lanes / 4;  // 13 = Q
        bits[i * g.stride] = on;
    }
    return to_string(bits);
}

static std::string update(int bytes, int trait, u64 count) {
    Geometry g = geometry(bytes, trait);
    bool bits[256] = {};
    for (int i = 0; i < g.lanes; ++i) bits[i * g.stride] = static_cast<u64>(i) < count;
    u32 rest = count < static_cast<u64>(g.lanes) ? 0 : static_cast<u32>(count - g.lanes);
    return to_string(bits) + " " + std::to_string(rest);
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string op;
        in >> op;
        if (op == "shl" || op == "shr") {
            int bits;
            std::string sign;
            u64 x;
            long n;
            in >> bits >> sign >> x >> n;
            bool s = sign == "s";
            u64 r;
            if (bits == 64) r = op == "shl" ? shl64(s, x, n) : shr64(s, x, n);
            else r = op == "shl" ? shl_narrow(bits, s, x, n) : shr_narrow(bits, s, x, n);
            std::cout << r << "\n";
        } else if (op == "cmp") {
            std::string mode, type;
            u64 a, b;
            in >> mode >> type >> a >> b;
            std::cout << (compare(mode, type, a, b) ? 1 : 0) << "\n";
        } else if (op == "pat") {
            int bytes, trait, code;
            in >> bytes >> trait >> code;
            std::cout << pattern(bytes, trait, code) << "\n";
        } else if (op == "upd") {
            int bytes, trait;
            u64 count;
            in >> bytes >> trait >> count;
            std::cout << update(bytes, trait, count) << "\n";
        } else {
            std::cout << "?\n";
        }
    }
    return 0;
}
