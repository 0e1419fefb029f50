// Driver of the emitted asc_shiftright_kernel: reads "<launches>" then, per launch, 128 uint16
// inputs and 128 int16 shift counts; runs the kernel once per launch (one block) on GM buffers;
// prints the 128 outputs of every launch.
#include <cstdio>
#include <vector>
#include EMITTED

int main() {
    unsigned launches = 0;
    if (std::scanf("%u", &launches) != 1) return 1;
    for (unsigned launch = 0; launch < launches; ++launch) {
        std::vector<uint16_t> input(ELEMENT_COUNT), output(ELEMENT_COUNT, 0);
        std::vector<int16_t> shift(ELEMENT_COUNT);
        for (auto& v : input) { unsigned x; if (std::scanf("%u", &x) != 1) return 1; v = uint16_t(x); }
        for (auto& v : shift) { int x; if (std::scanf("%d", &x) != 1) return 1; v = int16_t(x); }
        block_idx = 0;
        block_num = 1;
        asc_shiftright_kernel(output.data(), input.data(), shift.data());
        for (auto v : output) std::printf("%u\n", unsigned(v));
    }
    return 0;
}
