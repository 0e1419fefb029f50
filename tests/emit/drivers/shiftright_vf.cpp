// Driver of the emitted ShiftRightVF: reads "<count>" then count int16 values and count shift
// counts; dst starts as 0x5A5A everywhere (a masked-off tail lane must keep it); prints dst.
#include <cstdio>
#include <vector>
#include EMITTED

int main() {
    unsigned count = 0;
    if (std::scanf("%u", &count) != 1) return 1;
    const unsigned lanes = 128, padded = (count + lanes - 1) / lanes * lanes;
    std::vector<int16_t> src(padded), shift(padded), dst(padded, int16_t(0x5A5A));
    for (unsigned i = 0; i < count; ++i) { int v; if (std::scanf("%d", &v) != 1) return 1; src[i] = int16_t(v); }
    for (unsigned i = 0; i < count; ++i) { int v; if (std::scanf("%d", &v) != 1) return 1; shift[i] = int16_t(v); }
    ShiftRightVF(dst.data(), src.data(), shift.data(), count);
    for (unsigned i = 0; i < padded; ++i) std::printf("%d\n", int(dst[i]));
    return 0;
}
