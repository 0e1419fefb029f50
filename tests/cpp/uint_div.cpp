// Independent C++ implementation of GetUintDivMagicAndShift (the scalar unit) and
// Simt::UintDiv (SIMT), written from the asc-devkit headers' formulas (kernel_scalar.h,
// kernel_simt_math_impl.h) with 128-bit arithmetic; used by tests/simt/test_uint_div.py.
//
// One query per input line, one answer per output line (decimal):
//   magic <bits> <divisor>                    -> "<magic> <shift>"
//   div <bits> <dividend> <magic> <shift>     -> quotient
// <bits> is 32 or 64.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using u128 = unsigned __int128;

static int ceil_log2(u64 d) {
    int bits = 0;
    while (bits < 64 && (u64{1} << bits) < d) ++bits;
    return bits;  // the shift: smallest s with 2**s >= d
}

static void magic(int bits, u64 d, u64& m, u64& s) {
    s = static_cast<u64>(ceil_log2(d));
    if (bits == 32) {
        std::int64_t wide = (std::int64_t{1} << 32) * ((std::int64_t{1} << s) - static_cast<std::int64_t>(d)) /
                            static_cast<std::int64_t>(d) + 1;
        m = static_cast<u32>(wide);
    } else {
        u128 dividend = (u128{1} << s) - d;  // s <= 63 for d <= INT64_MAX
        m = static_cast<u64>((dividend << 64) / d) + 1;
    }
}

static u64 uint_div(int bits, u64 n, u64 m, u64 s) {
    if (bits == 32) {
        u32 q = static_cast<u32>((static_cast<u64>(static_cast<u32>(n)) * static_cast<u32>(m)) >> 32);
        u32 sum = static_cast<u32>(n) + q;  // wraps in 32 bits, as the SIMT code does
        return sum >> s;
    }
    u64 q = static_cast<u64>((static_cast<u128>(n) * m) >> 64);
    u64 sum = n + q;
    return sum >> s;
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string what;
        int bits = 0;
        in >> what >> bits;
        if (what == "magic") {
            u64 d = 0, m = 0, s = 0;
            in >> d;
            magic(bits, d, m, s);
            std::cout << m << ' ' << s << '\n';
        } else {
            u64 n = 0, m = 0, s = 0;
            in >> n >> m >> s;
            std::cout << uint_div(bits, n, m, s) << '\n';
        }
    }
    return 0;
}
