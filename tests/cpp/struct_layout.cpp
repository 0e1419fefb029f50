// Layout of C++ tiling structs as a C++ compiler lays them out, for tests/basic/test_kernel_source.py
// (ascreg.basic.Struct must give the same sizeof and offsetof, as the host writes these bytes and
// the kernel reads them back).
//
// One query per input line, one answer per output line: <struct name> -> "<sizeof> <offsets...>".
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>

struct Plain {
    uint32_t totalLength;
    uint32_t tileNum;
};

struct Mixed {
    uint8_t flag;
    uint64_t rows;
    float eps;
    uint16_t mode;
    int64_t cols;
    uint8_t tail;
};

struct Inner {
    int32_t a;
    uint8_t b;
};

struct Nested {
    uint8_t head;
    Inner inner;
    uint64_t scale;
    Inner pair[2];
};

struct Arrays {
    int32_t shapeLen;
    int64_t outputDims[8];
    int64_t inputDims[3][2];
    int8_t scalarData[5];
    uint16_t last;
};

struct RMSNormArch35TilingData {
    uint64_t num_row;
    uint64_t num_col;
    uint64_t num_col_align;
    uint64_t block_factor;
    uint64_t col_flod_factor;
    uint64_t ub_factor;
    float epsilon;
    float avg_factor;
    uint64_t last_block_factor;
};

#define LAYOUT(S, ...)                                                      \
    if (name == #S) {                                                       \
        std::cout << sizeof(S);                                             \
        for (std::size_t off : {__VA_ARGS__}) std::cout << ' ' << off;      \
        std::cout << '\n';                                                  \
        continue;                                                           \
    }

int main() {
    std::string name;
    while (std::getline(std::cin, name)) {
        LAYOUT(Plain, offsetof(Plain, totalLength), offsetof(Plain, tileNum))
        LAYOUT(Mixed, offsetof(Mixed, flag), offsetof(Mixed, rows), offsetof(Mixed, eps),
               offsetof(Mixed, mode), offsetof(Mixed, cols), offsetof(Mixed, tail))
        LAYOUT(Nested, offsetof(Nested, head), offsetof(Nested, inner), offsetof(Nested, scale),
               offsetof(Nested, pair))
        LAYOUT(Arrays, offsetof(Arrays, shapeLen), offsetof(Arrays, outputDims),
               offsetof(Arrays, inputDims), offsetof(Arrays, scalarData), offsetof(Arrays, last))
        LAYOUT(RMSNormArch35TilingData, offsetof(RMSNormArch35TilingData, num_row),
               offsetof(RMSNormArch35TilingData, num_col), offsetof(RMSNormArch35TilingData, num_col_align),
               offsetof(RMSNormArch35TilingData, block_factor),
               offsetof(RMSNormArch35TilingData, col_flod_factor),
               offsetof(RMSNormArch35TilingData, ub_factor), offsetof(RMSNormArch35TilingData, epsilon),
               offsetof(RMSNormArch35TilingData, avg_factor),
               offsetof(RMSNormArch35TilingData, last_block_factor))
        std::cout << "unknown\n";
    }
    return 0;
}
