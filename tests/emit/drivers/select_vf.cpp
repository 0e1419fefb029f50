// Driver of the emitted SelectVF<half> (ascreg_decl.h with ASCREG_EXEC): reads
// "<count> <padded>" then padded src0 and padded src1 half bit patterns (hex), one call,
// prints the padded dst bit patterns (dst starts zeroed).
#include <cstdio>
#include <vector>
#include EMITTED

int main() {
    unsigned count = 0, padded = 0;
    if (std::scanf("%u %u", &count, &padded) != 2) return 1;
    std::vector<half> src0(padded), src1(padded), dst(padded);
    for (auto* v : {&src0, &src1})
        for (auto& h : *v) {
            unsigned bits;
            if (std::scanf("%x", &bits) != 1) return 1;
            h.bits = uint16_t(bits);
        }
    for (auto& h : dst) h.bits = 0;
    const uint32_t oneRepeat = 256 / sizeof(half);
    SelectVF<half>(dst.data(), src0.data(), src1.data(), count, oneRepeat, uint16_t(padded / oneRepeat));
    for (auto& h : dst) std::printf("%x\n", unsigned(h.bits));
    return 0;
}
