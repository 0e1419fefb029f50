// Independent C++ implementation of the C API scalar-unit bit functions (asc_clz, asc_ffs, ...),
// written from the asc-devkit pages (scalar_compute/*.md), used by tests/c_api/test_scalar.py.
//
// One query per input line, one answer per output line (decimal):
//   <name> <a> [<b>]   name: clz ffs ffz popc zero_bits_cnt sflbits set_nthbit clear_nthbit;
//                      a (and b, the bit index) are signed or unsigned decimal 64-bit values,
//                      converted to the parameter types as a C call converts them.
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

using u64 = std::uint64_t;
using i64 = std::int64_t;

static u64 parse(const std::string& text) {
    if (!text.empty() && text[0] == '-') return static_cast<u64>(std::stoll(text));
    return std::stoull(text);
}

static i64 lowest(u64 v) {
    for (int i = 0; i < 64; ++i)
        if ((v >> i) & 1) return i;
    return -1;
}

static i64 count_ones(u64 v) {
    i64 n = 0;
    for (; v; v &= v - 1) ++n;
    return n;
}

static i64 leading_zeros(u64 v) {
    i64 n = 0;
    for (int i = 63; i >= 0 && !((v >> i) & 1); --i) ++n;
    return n;
}

static i64 sign_like(i64 v) {
    if (v == 0 || v == -1) return -1;
    u64 bits = static_cast<u64>(v);
    u64 sign = bits >> 63;
    i64 n = 0;
    for (int i = 62; i >= 0 && ((bits >> i) & 1) == sign; --i) ++n;
    return n;
}

static u64 nth(i64 idx) { return u64{1} << ((idx % 64 + 64) % 64); }

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string op, a, b;
        in >> op >> a >> b;
        u64 x = parse(a);
        if (op == "clz") std::cout << leading_zeros(x);
        else if (op == "ffs") std::cout << lowest(x);
        else if (op == "ffz") std::cout << lowest(~x);
        else if (op == "popc") std::cout << count_ones(x);
        else if (op == "zero_bits_cnt") std::cout << 64 - count_ones(x);
        else if (op == "sflbits") std::cout << sign_like(static_cast<i64>(x));
        else if (op == "set_nthbit") std::cout << (x | nth(static_cast<i64>(parse(b))));
        else if (op == "clear_nthbit") std::cout << (x & ~nth(static_cast<i64>(parse(b))));
        else std::cout << "?";
        std::cout << '\n';
    }
    return 0;
}
