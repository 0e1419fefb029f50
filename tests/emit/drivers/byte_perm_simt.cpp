// Driver of the emitted byte_perm_kernel: reads "<blocks>" then blocks*1024 x, y and s words;
// launches the kernel on every block (blockIdx.x = block) and prints the dst words.
#include <cstdio>
#include <vector>
#include EMITTED

int main() {
    unsigned blocks = 0;
    if (std::scanf("%u", &blocks) != 1) return 1;
    const unsigned n = blocks * 1024;
    std::vector<uint32_t> x(n), y(n), s(n), dst(n, 0);
    for (auto* v : {&x, &y, &s})
        for (auto& word : *v) if (std::scanf("%x", &word) != 1) return 1;
    gridDim = dim3(blocks);
    for (unsigned block = 0; block < blocks; ++block) {
        blockIdx = dim3(block);
        byte_perm_kernel(dst.data(), x.data(), y.data(), s.data());
    }
    for (auto word : dst) std::printf("%x\n", word);
    return 0;
}
