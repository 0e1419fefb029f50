// ---- functions no row describes (kernel-level C API, Reg helpers, SIMT builtins, basic API) -----

// C API, scalar unit (asc_sync.h, asc_copy.h, ...).
__aicore__ void asc_init();
__aicore__ void asc_sync();
__aicore__ void asc_sync_notify(pipe_t src, pipe_t dst, int32_t event);
__aicore__ void asc_sync_wait(pipe_t src, pipe_t dst, int32_t event);
__aicore__ void asc_sync_pipe(pipe_t pipe);
__aicore__ void asc_sync_data_barrier(mem_dsb_t arg);
__aicore__ void asc_lock(pipe_t pipe, uint8_t mutex_id, ascMutexExecuteMode mode = ASC_LOCK_BLOCK);
__aicore__ void asc_unlock(pipe_t pipe, uint8_t mutex_id, ascMutexExecuteMode mode = ASC_LOCK_BLOCK);
__simd_callee__ void asc_mem_bar(MEM_TYPE mem_type);
__aicore__ int64_t asc_get_block_idx();
__aicore__ int64_t asc_get_block_num();
__aicore__ inline constexpr uint32_t asc_get_vf_len() { return 256; }
__aicore__ void asc_set_copy_pad_val(uint64_t value);
__aicore__ void asc_set_gm2ub_pad(uint64_t value);
__simd_callee__ void asc_clear_ar_spr();
__simd_callee__ int64_t asc_get_squeeze_status();
__simd_callee__ int64_t asc_get_ar_spr();
__simd_callee__ vector_bool asc_get_mask_spr_b16();
__simd_callee__ vector_bool asc_get_mask_spr_b32();
__simd_callee__ addr_reg asc_update_addr_reg_b8(uint32_t offset0, uint32_t offset1 = 0, uint32_t offset2 = 0, uint32_t offset3 = 0);
__simd_callee__ addr_reg asc_update_addr_reg_b16(uint32_t offset0, uint32_t offset1 = 0, uint32_t offset2 = 0, uint32_t offset3 = 0);
__simd_callee__ addr_reg asc_update_addr_reg_b32(uint32_t offset0, uint32_t offset1 = 0, uint32_t offset2 = 0, uint32_t offset3 = 0);
__simd_callee__ addr_reg asc_create_iter_reg_b8(uint32_t offset0, uint32_t offset1 = 0, uint32_t offset2 = 0, uint32_t offset3 = 0);
__simd_callee__ addr_reg asc_create_iter_reg_b16(uint32_t offset0, uint32_t offset1 = 0, uint32_t offset2 = 0, uint32_t offset3 = 0);
__simd_callee__ addr_reg asc_create_iter_reg_b32(uint32_t offset0, uint32_t offset1 = 0, uint32_t offset2 = 0, uint32_t offset3 = 0);
// The copies take typed or void pointers: a size in bytes, or the burst parameters.
template <typename T> __aicore__ void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint32_t size);
template <typename T>
__aicore__ void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst, uint32_t len_burst,
                                     uint8_t left_padding, uint8_t right_padding, bool data_select_bit,
                                     asc_load_l2_cache_mode l2_cache_mode, uint64_t src_stride, uint32_t dst_stride);
template <typename T> __aicore__ void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint32_t size);
template <typename T>
__aicore__ void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst, uint32_t len_burst,
                                     asc_store_l2_cache_mode l2_cache_mode, uint64_t src_stride, uint32_t dst_stride);
// The deprecated spellings with a uint8_t cache-mode code.
template <typename T>
__aicore__ void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst, uint32_t len_burst,
                                     uint8_t left_padding, uint8_t right_padding, bool data_select_bit,
                                     uint8_t l2_cache_mode, uint64_t src_stride, uint32_t dst_stride);
template <typename T>
__aicore__ void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst, uint32_t len_burst,
                                     uint8_t l2_cache_mode, uint64_t src_stride, uint32_t dst_stride);
template <typename T> __aicore__ void asc_copy_gm2ub_align_sync(__ubuf__ T* dst, __gm__ T* src, uint32_t size);
template <typename T> __aicore__ void asc_copy_ub2gm_align_sync(__gm__ T* dst, __ubuf__ T* src, uint32_t size);
__aicore__ void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint32_t size);
__aicore__ void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint16_t n_burst, uint16_t len_burst, uint16_t src_stride, uint16_t dst_stride);
__aicore__ void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint32_t size);
__aicore__ void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint16_t n_burst, uint16_t len_burst, uint16_t src_stride, uint16_t dst_stride);
__aicore__ void asc_copy_gm2ub_sync(__ubuf__ void* dst, __gm__ void* src, uint32_t size);
__aicore__ void asc_copy_ub2gm_sync(__gm__ void* dst, __ubuf__ void* src, uint32_t size);

// Kernel assert (utils/debug/asc_assert.h): assert(expr) or assert(expr, fmt, args...).
template <typename... Args> __aicore__ void assert(bool expr, const char* fmt = nullptr, Args... args);

// asc_vf_call<f>(args...): a SIMD VF, or with a dim3 first a SIMT VF over that many threads.
template <auto F, typename... Args> __aicore__ void asc_vf_call(dim3 threads, Args... args);
template <auto F, typename... Args> __aicore__ void asc_vf_call(Args... args);

// SIMT builtins (simt_api/*.h) and the C library's abs.
__simt_callee__ int32_t abs(int32_t x);
__simt_callee__ int64_t abs(int64_t x);
__simt_callee__ float abs(float x);
__simt_callee__ void asc_syncthreads();
__simt_callee__ void asc_threadfence();
__simt_callee__ void asc_threadfence_block();
__simt_callee__ uint32_t asc_activemask();
__simt_callee__ int32_t laneid();
__simt_callee__ uint32_t lanemask_eq();
__simt_callee__ uint32_t lanemask_lt();
__simt_callee__ uint32_t lanemask_le();
__simt_callee__ uint32_t lanemask_gt();
__simt_callee__ uint32_t lanemask_ge();

namespace AscendC {
namespace Reg {
template <typename T = DefaultType, typename... Args> __simd_callee__ AddrReg CreateAddrReg(Args... indexAndStrides);
template <MemType src, MemType dst> __simd_callee__ void LocalMemBar();
template <SpecialPurposeReg spr> __simd_callee__ void ClearSpr();
// The older MicroAPI names that forward to LoadAlign/StoreAlign/... by operand kinds.
template <typename T = DefaultType, auto... modes, typename... A> __simd_callee__ void DataCopy(A&&... args);
template <typename T = DefaultType, auto... modes, typename... A> __simd_callee__ void DataCopyUnAlign(A&&... args);
}  // namespace Reg

// The basic API (kernel_operator.h): tensors, queues, copies, flags.
#define GM_ADDR __gm__ uint8_t*
__aicore__ void InitSocState();
__aicore__ int64_t GetBlockIdx();
__aicore__ int64_t GetBlockNum();
__aicore__ inline constexpr uint32_t CeilDivision(uint32_t num1, uint32_t num2) { return num2 == 0 ? 0 : (num1 + num2 - 1) / num2; }
template <HardEvent event> __aicore__ void SetFlag(int32_t eventID);
template <HardEvent event> __aicore__ void WaitFlag(int32_t eventID);
template <pipe_t pipe> __aicore__ void PipeBarrier();

template <typename T> class LocalTensor;
struct TBuffAddr { uint32_t dataLen; uint32_t bufferAddr; void* bufferHandle; uint8_t logicPos; };
template <typename T> class GlobalTensor {
public:
    using PrimType = T;
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize = 0);
    __aicore__ __gm__ T* GetPhyAddr(uint64_t offset = 0) const;
    __aicore__ uint64_t GetSize() const;
    __aicore__ GlobalTensor operator[](uint64_t offset) const;
    __aicore__ T GetValue(uint64_t offset) const;
    __aicore__ void SetValue(uint64_t offset, T value);
};
template <typename T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize);
    __aicore__ __ubuf__ T* GetPhyAddr(uint32_t offset = 0) const;
    __aicore__ uint32_t GetSize() const;
    __aicore__ uint32_t GetLength() const;
    __aicore__ TPosition GetPosition() const;
    __aicore__ LocalTensor operator[](uint32_t offset) const;
    __aicore__ T GetValue(uint32_t index) const;
    __aicore__ void SetValue(uint32_t index, T value);
    template <typename U> __aicore__ LocalTensor<U> ReinterpretCast() const;
    __aicore__ void SetAddr(const TBuffAddr& address);
};
template <TPosition src, TPosition dst, int32_t depth> class TQueBind {
public:
    template <typename T> __aicore__ LocalTensor<T> AllocTensor();
    template <typename T> __aicore__ bool EnQue(const LocalTensor<T>& tensor);
    template <typename T> __aicore__ LocalTensor<T> DeQue();
    template <typename T> __aicore__ void FreeTensor(LocalTensor<T>& tensor);
    __aicore__ bool VacantInQue();
    __aicore__ bool HasTensorInQue();
    __aicore__ int32_t GetTensorCountInQue();
    __aicore__ bool HasIdleBuffer();
};
template <TPosition pos, int32_t depth> class TQue : public TQueBind<pos, pos, depth> {};
template <TPosition pos = TPosition::VECCALC> class TBuf {
public:
    template <typename T> __aicore__ LocalTensor<T> Get();
    template <typename T> __aicore__ LocalTensor<T> Get(uint32_t len);
    template <typename T> __aicore__ LocalTensor<T> GetWithOffset(uint32_t len, uint32_t offset);
};
class TPipe {
public:
    template <HardEvent event> __aicore__ int8_t FetchEventID();
    template <HardEvent event> __aicore__ void ReleaseEventID(int8_t id);
    template <HardEvent event> __aicore__ int8_t AllocEventID();
    template <class Q> __aicore__ bool InitBuffer(Q& que, uint8_t num, uint32_t len);
    template <TPosition pos> __aicore__ bool InitBuffer(TBuf<pos>& buf, uint32_t len);
};
__aicore__ TPipe* GetTPipePtr();
using TEventID = int8_t;
// NumericLimits<T>::M() and the vector form M(dst, count) of each member.
#define ASCREG_LIMIT(M) \
    __aicore__ static T M(); \
    __aicore__ static void M(const LocalTensor<T>& dst, uint32_t count);
template <typename T> struct NumericLimits {
    ASCREG_LIMIT(Max) ASCREG_LIMIT(Min) ASCREG_LIMIT(Lowest) ASCREG_LIMIT(DeNormMin) ASCREG_LIMIT(Infinity)
    ASCREG_LIMIT(NegativeInfinity) ASCREG_LIMIT(QuietNaN) ASCREG_LIMIT(SignalingNaN)
};
#undef ASCREG_LIMIT
template <Hardware hw = Hardware::UB> class LocalMemAllocator {
public:
    template <typename T, uint32_t count> __aicore__ LocalTensor<T> Alloc();
    template <typename T> __aicore__ LocalTensor<T> Alloc(uint32_t count);
    template <TPosition pos, typename T, uint32_t count> __aicore__ LocalTensor<T> Alloc();
    template <TPosition pos, typename T> __aicore__ LocalTensor<T> Alloc(uint32_t count);
    __aicore__ uint32_t GetCurAddr() const;
};
struct DataCopyParams {
    uint16_t blockCount = 1, blockLen = 0, srcStride = 0, dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0, srcStride = 0, dstStride = 0, rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t reserved = 0)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(reserved) {}
};
template <typename T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    T paddingValue = 0;
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
template <typename T> __aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count);
template <typename T> __aicore__ void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count);
template <typename T> __aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params);
template <typename T> __aicore__ void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params);
struct Nd2NzParams { template <typename... A> constexpr Nd2NzParams(A&&...) {} };
struct Dn2NzParams { template <typename... A> constexpr Dn2NzParams(A&&...) {} };
template <typename T, bool enableSmallC0 = false> __aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& params);
template <typename T, bool enableSmallC0 = false> __aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Dn2NzParams& params);
template <typename T> __aicore__ void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params, const DataCopyPadExtParams<T>& pads);
template <typename T> __aicore__ void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params);
template <typename T> __aicore__ void Duplicate(const LocalTensor<T>& dst, T scalarValue, int32_t count);
}  // namespace AscendC

#ifdef ASCREG_EXEC
// The scalar unit on a CPU: one block at a time, in program order; flags and barriers have
// nothing to wait for and copies are memcpy.
inline void asc_init() {}
inline void asc_sync() {}
inline void asc_sync_notify(pipe_t, pipe_t, int32_t) {}
inline void asc_sync_wait(pipe_t, pipe_t, int32_t) {}
template <typename T> void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint32_t size) { __builtin_memcpy(dst, src, size); }
template <typename T> void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint32_t size) { __builtin_memcpy(dst, src, size); }
template <auto F, typename... Args> void asc_vf_call(dim3 threads, Args... args) {
    blockDim = threads;
    for (uint32_t z = 0; z < threads.z; ++z)
        for (uint32_t y = 0; y < threads.y; ++y)
            for (uint32_t x = 0; x < threads.x; ++x) {
                threadIdx = dim3(x, y, z);
                F(args...);
            }
}
template <auto F, typename... Args> void asc_vf_call(Args... args) { F(args...); }
#endif  // ASCREG_EXEC
