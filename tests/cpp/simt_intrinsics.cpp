// Independent C++ implementation of the documented SIMT integer device functions, used as a golden
// reference by tests/simt/test_intrinsics.py. Written from the spec digest (c_api_simt.md §6.1,
// §6.2) and the __byte_perm page in shared/seeds, not from the Python implementation.
//
// One query per input line, one answer per output line (decimal; signed results printed signed):
//   <name> <arg> [<arg> ...]
// where <name> is one of the functions below (64-bit overloads carry a "64" suffix) and each
// argument is a decimal integer already in the range of its C parameter type.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

// The seed's reference code for __byte_perm, verbatim in meaning.
static u32 byte_perm(u32 x, u32 y, u32 s) {
    u64 tmp64 = (static_cast<u64>(y) << 32) | x;
    unsigned sel[4] = {(s >> 0) & 0x7, (s >> 4) & 0x7, (s >> 8) & 0x7, (s >> 12) & 0x7};
    u32 result = 0;
    for (int n = 0; n < 4; ++n) result |= static_cast<u32>((tmp64 >> (sel[n] * 8)) & 0xFF) << (8 * n);
    return result;
}

static u64 brev(u64 x, int bits) {
    u64 r = 0;
    for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}

static int clz(u64 x, int bits) {
    int n = 0;
    for (int i = bits - 1; i >= 0 && ((x >> i) & 1) == 0; --i) ++n;
    return n;
}

static int ffs(u64 x, int bits) {
    for (int i = 0; i < bits; ++i)
        if ((x >> i) & 1) return i + 1;
    return 0;
}

static int popc(u64 x, int bits) {
    int n = 0;
    for (int i = 0; i < bits; ++i) n += (x >> i) & 1;
    return n;
}

static i64 floor_half(i64 s) { return (s % 2 != 0 && s < 0) ? s / 2 - 1 : s / 2; }

static i64 sext24(u32 x) {
    i64 v = x & 0xFFFFFF;
    return (v & 0x800000) ? v - 0x1000000 : v;
}

static i32 to_i32(u64 bits) {  // two's complement reinterpretation of the low 32 bits
    u32 low = static_cast<u32>(bits);
    return low >= 0x80000000u ? static_cast<i32>(static_cast<i64>(low) - 0x100000000LL) : static_cast<i32>(low);
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string f;
        in >> f;
        i64 a = 0, b = 0;
        u64 ua = 0, ub = 0, uc = 0;
        std::string sa, sb, sc;
        in >> sa >> sb >> sc;
        // Parse each argument both ways; each function reads the form its C parameter has.
        if (!sa.empty()) { ua = std::stoull(sa[0] == '-' ? "0" : sa); a = sa[0] == '-' ? std::stoll(sa) : static_cast<i64>(ua); }
        if (!sb.empty()) { ub = std::stoull(sb[0] == '-' ? "0" : sb); b = sb[0] == '-' ? std::stoll(sb) : static_cast<i64>(ub); }
        if (!sc.empty()) uc = std::stoull(sc);  // the third parameter is always unsigned
        std::ostringstream out;
        if (f == "__byte_perm") out << byte_perm(static_cast<u32>(ua), static_cast<u32>(ub), static_cast<u32>(uc));
        else if (f == "__mulhi") out << static_cast<i32>((a * b) >> 32);
        else if (f == "__umulhi") out << static_cast<u32>((ua * ub) >> 32);
        else if (f == "__mul64hi") out << static_cast<i64>((static_cast<__int128>(a) * b) >> 64);
        else if (f == "__umul64hi") out << static_cast<u64>((static_cast<unsigned __int128>(ua) * ub) >> 64);
        else if (f == "__mul_i32toi64") out << a * b;
        else if (f == "__mul_i32toi64u") out << ua * ub;
        else if (f == "__brev") out << brev(ua, 32);
        else if (f == "__brev64") out << brev(ua, 64);
        else if (f == "__clz") out << clz(static_cast<u32>(a), 32);
        else if (f == "__clz64") out << clz(static_cast<u64>(a), 64);
        else if (f == "__ffs") out << ffs(static_cast<u32>(a), 32);
        else if (f == "__ffs64") out << ffs(static_cast<u64>(a), 64);
        else if (f == "__popc") out << popc(ua, 32);
        else if (f == "__popc64") out << popc(ua, 64);
        else if (f == "__sad") out << static_cast<u32>(static_cast<u64>(a > b ? a - b : b - a) + uc);
        else if (f == "__usad") out << static_cast<u32>((ua > ub ? ua - ub : ub - ua) + uc);
        else if (f == "__mul24") out << to_i32(static_cast<u64>(sext24(static_cast<u32>(a)) * sext24(static_cast<u32>(b))));
        else if (f == "__umul24") out << static_cast<u32>((ua & 0xFFFFFF) * (ub & 0xFFFFFF));
        else if (f == "__hadd") out << floor_half(a + b);
        else if (f == "__rhadd") out << floor_half(a + b + 1);
        else if (f == "__uhadd") out << (ua + ub) / 2;
        else if (f == "__urhadd") out << (ua + ub + 1) / 2;
        else if (f == "llmax" || f == "max") out << (a > b ? a : b);
        else if (f == "llmin" || f == "min") out << (a < b ? a : b);
        else if (f == "umax" || f == "ullmax" || f == "maxu") out << (ua > ub ? ua : ub);
        else if (f == "umin" || f == "ullmin" || f == "minu") out << (ua < ub ? ua : ub);
        else if (f == "labs" || f == "llabs") out << (a < 0 ? static_cast<i64>(0 - static_cast<u64>(a)) : a);
        else out << "unknown";
        std::cout << out.str() << "\n";
    }
    return 0;
}
