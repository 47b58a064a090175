// Moving a thread's run of N elements between memory and accumulators:
// load + convert + mask ("lift"), and convert + store. Elements past `valid`
// are neither read nor written and lift to the identity. Contiguous runs
// (stride 1) use vector accesses when the pointers are aligned.
#pragma once

#include "scanjit/ops.cuh"
#include "scanjit/vector_io.cuh"

namespace scanjit {

// What a problem's mask holds an element of: a byte, or a packed item's
// bytes (packed_lanes.cuh: P::MaskItem).
template <class...> struct AlwaysVoid {
  typedef void type;
};
template <class P, class = void> struct MaskItemOf {
  typedef u8 type;
};
template <class P> struct MaskItemOf<P, typename AlwaysVoid<typename P::MaskItem>::type> {
  typedef typename P::MaskItem type;
};

// An element lifted to the accumulator where it lies in the tile and its
// mask keeps it, else the identity (a packed item: lane by lane).
template <class Op, class Acc, class In>
__device__ __forceinline__ Acc lift_masked(bool in_tile, In raw, u8 keep) {
  return in_tile && keep != 0 ? Convert<In>::template load<Acc>(raw) : Op::identity();
}

// Items of several members (packed lanes' Lanes<T, C>, which name their
// member type Value): a warp's run of wide ones leaves shared memory member
// by member across the lanes (copies_runs_by_members).
// (A function, not a static member: NVRTC emits those as globals.)
template <class T, class = void> struct ItemMembers {
  typedef T Member;
};
template <class T> struct ItemMembers<T, typename AlwaysVoid<typename T::Value>::type> {
  typedef typename T::Value Member;
};
template <class T> __device__ constexpr int item_members() {
  return int(sizeof(T) / sizeof(typename ItemMembers<T>::Member));
}

template <class T, int N, long long kStride, class Index>
__device__ __forceinline__ void load_run(const T *p, Index valid, T (&v)[N]) {
  if (kStride == 1 && valid >= N && VectorAccess<T, N>::is_aligned(p)) {
    VectorAccess<T, N>::load(p, v);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j < valid)
      v[j] = p[j * kStride];
}

// Loads, converts to the accumulator and applies the mask.
template <class P, int N, long long kStrideIn, long long kStrideMask, class Index>
__device__ __forceinline__ void load_lifted(const typename P::In *in, const u8 *mask, Index valid,
                                            typename P::Acc (&x)[N]) {
  typedef typename P::In In;
  In raw[N];
  load_run<In, N, kStrideIn>(in, valid, raw);
  u8 keep[N];
  if (P::kMask)
    load_run<u8, N, kStrideMask>(mask, valid, keep);
#pragma unroll
  for (int j = 0; j < N; ++j) {
    bool use = j < valid && (!P::kMask || keep[j] != 0);
    x[j] = use ? Convert<In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
  }
}

// N results stored as one vector at `out`, known to be aligned to it.
template <class P, int N>
__device__ __forceinline__ void store_converted_vector(typename P::Out *out, const typename P::Acc (&r)[N]) {
  typename P::Out v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = Convert<typename P::Out>::store(r[j]);
  VectorAccess<typename P::Out, N>::store(out, v);
}

template <class P, int N, long long kStrideOut, class Index>
__device__ __forceinline__ void store_converted(typename P::Out *out, Index valid,
                                                const typename P::Acc (&r)[N]) {
  typedef typename P::Out Out;
  Out v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = Convert<Out>::store(r[j]);
  if (kStrideOut == 1 && valid >= N && VectorAccess<Out, N>::is_aligned(out)) {
    VectorAccess<Out, N>::store(out, v);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j < valid)
      out[j * kStrideOut] = v[j];
}

// Converts a thread's N results and stores them at `p` in shared memory
// (aligned to the run's vector: a stage's slot of a thread's first item).
template <class P, int N>
__device__ __forceinline__ void store_converted_shared(typename P::Out *p, const typename P::Acc (&r)[N]) {
  typedef typename P::Out Out;
  typedef VectorAccess<Out, N> V;
  Out v[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    v[j] = Convert<Out>::store(r[j]);
  typename V::Word w[V::kWords];
  memcpy(w, v, sizeof(w));
#pragma unroll
  for (int i = 0; i < V::kWords; ++i)
    reinterpret_cast<typename V::Word *>(p)[i] = w[i];
}

// Slots [lo, hi) of a run of items of several members in shared memory
// (`src`, 16-byte aligned at slot 0) to `dst`: by 16-byte words across the
// lanes where the items are whole words and `dst` lies on their grid, else
// member by member, so that each store instruction is 32 consecutive words
// or members. An item a lane stored its members 32 or 64 bytes apart, each
// instruction a sector a lane (max f32[2097152,8] dim=0 as sm_80: 8x the
// store sectors, L2-bound from 8M rows).
template <class Out>
__device__ __forceinline__ void copy_member_run_by_lanes(Out *dst, const Out *src, int lo, int hi) {
  typedef typename ItemMembers<Out>::Member Member;
  constexpr int kMembers = item_members<Out>();
  const int lane = int(threadIdx.x & 31);
  if constexpr (int(sizeof(Out)) % 16 == 0) {
    if ((reinterpret_cast<u64>(dst) & 15u) == 0) {
      constexpr int kWords = int(sizeof(Out)) / 16;
      const uint4 *from = reinterpret_cast<const uint4 *>(src);
      uint4 *to = reinterpret_cast<uint4 *>(dst);
#pragma unroll 1
      for (int w = lo * kWords + lane; w < hi * kWords; w += 32)
        __stwb(to + w, from[w]);
      return;
    }
  }
  const Member *from = reinterpret_cast<const Member *>(src);
  Member *to = reinterpret_cast<Member *>(dst);
#pragma unroll 1
  for (int m = lo * kMembers + lane; m < hi * kMembers; m += 32)
    to[m] = from[m];
}

// Whether a run of items leaves shared memory member by member across the
// lanes (copy_member_run_by_lanes): items of more than four members. An
// item a lane stores each member a sector a lane apart; fewer members are
// cheaper as an item a lane (H200, outputs off the grid, x copy, item a
// lane / by members: min i16[4194304,8] dim=0 exclusive 3.63 / 2.12, max
// u8[1048576,16] dim=0 8.68 / 4.04; max u8[4194304,4] dim=0 2.69 / 3.00,
// sum f16[2097152,4] dim=0 2.14 / 2.37).
template <class Out> __device__ constexpr bool copies_runs_by_members() { return item_members<Out>() > 4; }

// A warp's run of 32 x N elements from `first` on, copied from shared
// memory (`src`) to `dst` where they lie in [lo, hi): lane l copies elements
// first + l, first + l + 32, ..., so each store instruction is 32
// consecutive elements (items of more than four members go member by
// member: copies_runs_by_members).
template <int N, class Out>
__device__ __forceinline__ void copy_run_by_lanes(Out *dst, const Out *src, int first, int lo, int hi) {
  if constexpr (copies_runs_by_members<Out>()) {
    copy_member_run_by_lanes(dst, src, max(first, lo), min(first + 32 * N, hi));
    return;
  }
  const int lane = int(threadIdx.x & 31);
#pragma unroll
  for (int m = 0; m < N; ++m) {
    const int slot = first + lane + 32 * m;
    if (slot >= lo && slot < hi)
      dst[slot] = src[slot];
  }
}

// Whether a run of Out leaves shared memory by copy_run_by_lane_words: 1-
// and 2-byte elements, which took 8 or 16 store instructions a word element
// by element (H200, x copy: f16 rows with the output one element off the
// input's grid 1.30 -> 1.17, bf16 1-D three off 1.77 -> 1.61). Wider ones
// go element by element (copy_run_by_lanes): the words' shifts cost more
// than the stores they save (f32 1-D one off 1.43 -> 1.56, i64 results of
// u8 rows 1.33 -> 1.60; BENCHMARKS.md).
template <class Out> __device__ constexpr bool copies_runs_by_lane_words() {
  return sizeof(Out) <= 2 && alignof(Out) == sizeof(Out);
}

// Slots [lo, hi) (the same for the whole warp) of a run in shared memory,
// `src` (16-byte aligned at slot 0, and readable up to the 16-byte word
// that ends past slot hi), to `dst` (any element's address): the lanes store
// dst's whole 16-byte words, each built from the two shared words it
// straddles (a run's bytes sit at the same distance from a word in shared
// memory throughout, and so in dst), and single elements before the first
// whole word and after the last.
template <class Out>
__device__ __forceinline__ void copy_run_by_lane_words(Out *dst, const Out *src, int lo, int hi) {
  static_assert(copies_runs_by_lane_words<Out>(), "elements that tile a word, aligned to their size");
  constexpr int kSize = int(sizeof(Out)), kWordElems = 16 / kSize;
  const int lane = int(threadIdx.x & 31);
  // (The low 4 bits of an address: 32-bit arithmetic suffices.)
  const unsigned dst_at = unsigned(reinterpret_cast<u64>(dst + lo)) & 15u;
  const int head_end = min(hi, lo + int((16u - dst_at) & 15u) / kSize); // dst's first word boundary
  const int words = max(0, hi - head_end) / kWordElems;
  const int tail = head_end + words * kWordElems;
  if (lane < head_end - lo)
    dst[lo + lane] = src[lo + lane];
  if (lane < hi - tail)
    dst[tail + lane] = src[tail + lane];
  // Word w of dst holds the bytes from `shift` past src's word w (counted
  // from head_end's word): 4-byte pieces k.. of the two, shifted by `bits`.
  const unsigned begin = unsigned(head_end * kSize), shift = begin & 15u;
  const unsigned char *base = reinterpret_cast<const unsigned char *>(src) + (begin - shift);
  const int k = int(shift >> 2);
  const unsigned bits = (shift & 3u) * 8u;
#pragma unroll 1
  for (int w = lane; w < words; w += 32) {
    const uint4 a = *reinterpret_cast<const uint4 *>(base + 16 * w);
    const uint4 b = shift ? *reinterpret_cast<const uint4 *>(base + 16 * w + 16) : make_uint4(0, 0, 0, 0);
    const unsigned x[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    unsigned y[7], z[5];
#pragma unroll
    for (int j = 0; j < 7; ++j)
      y[j] = (k & 1) ? x[j + 1] : x[j];
#pragma unroll
    for (int j = 0; j < 5; ++j)
      z[j] = (k & 2) ? y[j + 2] : y[j];
    uint4 o;
    o.x = __funnelshift_r(z[0], z[1], bits);
    o.y = __funnelshift_r(z[1], z[2], bits);
    o.z = __funnelshift_r(z[2], z[3], bits);
    o.w = __funnelshift_r(z[3], z[4], bits);
    // (One 16-byte store: NVVM split the plain assignment of the word
    // into four 4-byte stores, each lane's 4 bytes in a sector apart, four
    // times the sectors: bf16 1-D one element off, H200, 7.1M store
    // sectors for 1.75M.)
    __stwb(reinterpret_cast<uint4 *>(dst + head_end + w * kWordElems), o);
  }
}

// Slots [lo, hi) of a warp's run of 32 x N elements in `scratch` (16-byte
// aligned) to `out`, slot 0's element: store_converted_warp_run's second
// half (below).
template <class P, int N>
__device__ __forceinline__ void copy_warp_run(typename P::Out *out, int lo, int hi, const typename P::Out *scratch) {
  typedef typename P::Out Out;
  constexpr int kRun = 32 * N;
  const int lane = int(threadIdx.x & 31);
  constexpr int kWordElems = 16 / int(sizeof(Out));
  if constexpr (sizeof(Out) <= 16 && 16 % sizeof(Out) == 0 && kRun % (32 * kWordElems) == 0) {
    if (lo <= 0 && hi >= kRun && VectorAccess<Out, kWordElems>::is_aligned(out)) {
#pragma unroll
      for (int w = lane; w < kRun / kWordElems; w += 32) {
        Out v[kWordElems];
        VectorAccess<Out, kWordElems>::load_shared(scratch + w * kWordElems, v);
        VectorAccess<Out, kWordElems>::store(out + w * kWordElems, v);
      }
      return;
    }
  }
  if constexpr (copies_runs_by_lane_words<Out>() && kRun * sizeof(Out) % 16 == 0) // (readable to the word past it)
    copy_run_by_lane_words(out, scratch, max(0, lo), min(kRun, hi));
  else
    copy_run_by_lanes<N>(out, scratch, 0, lo, hi);
}

// A warp's run of 32 x N consecutive results (lane l holds slots
// [lN, lN + N)) stored at `out`, slot 0's element, where slots [lo, hi)
// exist: through `scratch` (the warp's 32 x N elements of shared memory,
// aligned to 16 bytes), so that each store is coalesced across the lanes:
// whole 16-byte words when the run is whole and `out` on the grid, else
// single elements. For runs longer than two vectors a thread (i64 results
// of u8 rows: 1.8x copy from registers) or outputs off the grid (strided
// scalars: 2-3.7x).
template <class P, int N>
__device__ __forceinline__ void store_converted_warp_run(typename P::Out *out, int lo, int hi,
                                                         typename P::Out *scratch, const typename P::Acc (&r)[N]) {
  const int lane = int(threadIdx.x & 31);
  __syncwarp(); // the lanes have read the warp's previous run
  store_converted_shared<P, N>(scratch + lane * N, r);
  __syncwarp();
  copy_warp_run<P, N>(out, lo, hi, scratch);
}

// A warp's run of 32 x N elements from `p` (slot 0; slots at or past
// `valid` are not read), loaded lane by lane, striped: lane l's v[m] is
// slot l + 32 m, so that each load instruction reads 32 consecutive
// elements. For runs off their vector's grid (rows of odd length, pointers
// an element in), where each thread's own run took N strided scalar loads
// (f16 rows of 32769, as sm_80 on an H200: 9.3x copy). unstripe_warp_run
// hands each thread its own run.
template <class T, int N, class Index>
__device__ __forceinline__ void load_warp_run_striped(const T *p, Index valid, T (&v)[N]) {
  const int lane = int(threadIdx.x & 31);
  if constexpr (moves_as_word<T>()) { // (packed lanes' items: by words where they lie on their grid)
    if (ItemWord<T>::is_aligned(p)) {
#pragma unroll
      for (int m = 0; m < N; ++m)
        if (Index(lane + 32 * m) < valid)
          v[m] = ItemWord<T>::load(p + lane + 32 * m);
      return;
    }
  }
#pragma unroll
  for (int m = 0; m < N; ++m)
    if (Index(lane + 32 * m) < valid)
      v[m] = p[lane + 32 * m];
}

// A striped run (load_warp_run_striped) written to `scratch` (the warp's
// 32 x N elements of shared memory, 16-byte aligned) at its slots, for the
// lanes to read theirs after.
template <class T, int N> __device__ __forceinline__ void put_striped_run(T *scratch, const T (&v)[N]) {
  const int lane = int(threadIdx.x & 31);
  __syncwarp(); // the lanes have read the warp's previous run
#pragma unroll
  for (int m = 0; m < N; ++m) {
    if constexpr (moves_as_word<T>()) // (the scratch lies on every item's word grid)
      ItemWord<T>::store(scratch + lane + 32 * m, v[m]);
    else
      scratch[lane + 32 * m] = v[m];
  }
  __syncwarp();
}

// A striped run (load_warp_run_striped) turned into each lane's own N
// consecutive slots [lN, lN + N), through `scratch` (the warp's 32 x N
// elements of shared memory, 16-byte aligned).
template <class T, int N> __device__ __forceinline__ void unstripe_warp_run(T *scratch, T (&v)[N]) {
  put_striped_run(scratch, v);
  VectorAccess<T, N>::load_shared(scratch + int(threadIdx.x & 31) * N, v);
}

// A thread's N loaded elements (and mask bytes), the first at `first` of a
// run of which `valid` exist, lifted to the accumulator: elements past the
// run's end or masked off lift to the identity (a packed item's lanes each
// by its own mask byte: lift_masked).
template <class P, int N, class Index>
__device__ __forceinline__ void lift_run(const typename P::In (&raw)[N], const typename MaskItemOf<P>::type (&keep)[N],
                                         Index first, Index valid, typename P::Acc (&x)[N]) {
#pragma unroll
  for (int j = 0; j < N; ++j) {
    if constexpr (P::kMask && sizeof(typename MaskItemOf<P>::type) > 1) {
      x[j] = lift_masked<typename P::Op, typename P::Acc>(first + j < valid, raw[j], keep[j]);
    } else {
      // (keep[j] is a byte here only where there is a mask.)
      bool use = first + j < valid;
      if constexpr (P::kMask)
        use = use && keep[j] != 0;
      x[j] = use ? Convert<typename P::In>::template load<typename P::Acc>(raw[j]) : P::Op::identity();
    }
  }
}

// Whether threads' runs of N elements from `in` (and `mask`) lie off their
// vectors' grid, so that a warp's run loads lane by lane
// (load_warp_run_striped). Runs a whole vector apart all lie as far off it
// as the first.
template <class P, int N>
__device__ __forceinline__ bool loads_by_lanes(const typename P::In *in, const u8 *mask) {
  return !VectorAccess<typename P::In, N>::is_aligned(in) ||
         (P::kMask && !VectorAccess<typename MaskItemOf<P>::type, N>::is_aligned(mask));
}

// A warp's run of 32 x N items at `in` (slot 0; slots at or past `valid`
// do not exist) and its mask items at `mask` (bytes, or a packed item's),
// loaded striped (load_warp_run_striped).
template <class P, int N, class Index>
__device__ __forceinline__ void load_striped_warp_run(const typename P::In *in, const u8 *mask, Index valid,
                                                      typename P::In (&raw)[N],
                                                      typename MaskItemOf<P>::type (&keep)[N]) {
  typedef typename MaskItemOf<P>::type MaskItem;
  load_warp_run_striped<typename P::In, N>(in, valid, raw);
  if (P::kMask)
    load_warp_run_striped<MaskItem, N>(reinterpret_cast<const MaskItem *>(mask), valid, keep);
}

// A warp's run loaded striped (load_striped_warp_run: its items `raw`, its
// mask items `keep`; `valid` of its slots exist) unstriped through the
// warp's scratch and lifted to the accumulator: each thread's own N.
template <class P, int N, class Index>
__device__ __forceinline__ void lift_striped_warp_run(typename P::In (&raw)[N], typename MaskItemOf<P>::type (&keep)[N],
                                                      Index valid, typename P::In *scratch,
                                                      typename MaskItemOf<P>::type *mask_scratch,
                                                      typename P::Acc (&x)[N]) {
  unstripe_warp_run(scratch, raw);
  if (P::kMask)
    unstripe_warp_run(mask_scratch, keep);
  lift_run<P, N>(raw, keep, Index(threadIdx.x & 31) * N, valid, x);
}

// A thread's N elements of a warp's run of 32 x N at `in` (slot 0; slots
// at or past `valid` do not exist) loaded lane by lane and unstriped through
// the warp's scratch (load_warp_run_striped, unstripe_warp_run), lifted to
// the accumulator.
template <class P, int N, class Index>
__device__ __forceinline__ void load_lifted_warp_run(const typename P::In *in, const u8 *mask, Index valid,
                                                     typename P::In *scratch,
                                                     typename MaskItemOf<P>::type *mask_scratch,
                                                     typename P::Acc (&x)[N]) {
  typename P::In raw[N];
  typename MaskItemOf<P>::type keep[N];
  load_striped_warp_run<P, N>(in, mask, valid, raw, keep);
  lift_striped_warp_run<P, N>(raw, keep, valid, scratch, mask_scratch, x);
}

// Each warp's shared memory for runs moved lane by lane: its run of 32 x N
// inputs and later of results (one scratch as wide as the wider, so that
// no warp's reaches into another's), and of mask items (bytes, or a packed
// item's bytes; kMaskRuns false where no mask run moves through it).
template <class P, int T, int N, bool kMaskRuns = P::kMask> struct WarpRunScratch {
  typedef typename P::In In;
  typedef typename P::Out Out;
  typedef typename MaskItemOf<P>::type MaskItem;
  static constexpr int kWarpBytes = 32 * N * int(sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out));
  static constexpr int kMaskItems = kMaskRuns ? T * N : int((16 + sizeof(MaskItem) - 1) / sizeof(MaskItem));
  alignas(16) unsigned char runs[T / 32 * kWarpBytes];
  alignas(16) MaskItem masks[kMaskItems];
  __device__ __forceinline__ In *in() { return reinterpret_cast<In *>(runs + threadIdx.x / 32 * kWarpBytes); }
  __device__ __forceinline__ Out *out() { return reinterpret_cast<Out *>(runs + threadIdx.x / 32 * kWarpBytes); }
  __device__ __forceinline__ MaskItem *mask() { return masks + (kMaskRuns ? (threadIdx.x & ~31) * N : 0); }
};

// Whether a thread's run of N results leaves better through the warp's
// shared scratch (store_converted_warp_run) than from its registers: runs of
// more than 32 bytes, runs off their words' grid, and runs of many narrow
// words (each such store spans the warp's whole run, a word of every
// sector: logsumexp f16[100000,480] dim=1, 15 words of 2 bytes a lane, went
// 7.05x copy from registers, 1.49x through the scratch). Seven words of 2 or
// 4 bytes are many (sum f16[3595117,14] dim=1 warp_rows=1 2.97x / 0.93x,
// sum f32[2396745,7] dim=1 1.35x / 0.88x, prod f16[449389,56] dim=1 2.16x /
// 0.94x: 63 of 80 drawn rows gained); seven words of byte elements are not
// (max u8[107142,224] dim=1, 7 bytes, 1.48x / 1.76x; max u8[2396745,28]
// dim=1, 7 pairs, 1.40x / 1.52x), nor seven words of log-sum-exp, whose
// combines already fill the issue slots (logsumexp bf16[107142,112] dim=1
// 1.34x / 1.50x: BENCHMARKS.md, sixty-fourth pass).
template <class P, int N> __device__ __forceinline__ bool store_by_warp_run(const typename P::Out *out) {
  typedef VectorAccess<typename P::Out, N> Run;
  constexpr bool kSevenAreMany = sizeof(typename P::Out) > 1 && CheapCombine<typename P::Op>::value;
  constexpr int kManyWords = kSevenAreMany ? 7 : 8;
  return N * sizeof(typename P::Out) > 32 || Run::kWords >= kManyWords || !Run::is_aligned(out);
}

// A tile's results in a row of `length` elements at `row`, the tile's first
// at `tile_first`, thread t's N from tile_first + t N: through the warp's
// `scratch` where `by_warp` (store_by_warp_run of the tile's first), else
// from each thread's registers.
template <class P, int N, class Index>
__device__ __forceinline__ void store_converted_tile_run(typename P::Out *row, Index tile_first, Index length,
                                                         bool by_warp, typename P::Out *scratch,
                                                         const typename P::Acc (&r)[N]) {
  if (by_warp) {
    const Index at = tile_first + Index(threadIdx.x & ~31) * N, left = length - at;
    store_converted_warp_run<P, N>(row + at, 0, left < Index(32 * N) ? int(left) : 32 * N, scratch, r);
  } else {
    const Index start = tile_first + Index(threadIdx.x) * N;
    store_converted<P, N, 1>(row + start, length - start, r);
  }
}

// The same for a run of which only elements [lo, hi) exist (the edges of a
// tile on the 16-byte grid: lo > 0 before a row's first element).
template <class P, int N, class Index>
__device__ __forceinline__ void load_lifted_in(const typename P::In *in, const u8 *mask, Index lo, Index hi,
                                               typename P::Acc (&x)[N]) {
  if (lo <= 0) {
    load_lifted<P, N, 1, 1>(in, mask, hi, x);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j) {
    const bool use = j >= lo && j < hi && (!P::kMask || mask[j] != 0);
    x[j] = use ? Convert<typename P::In>::template load<typename P::Acc>(in[j]) : P::Op::identity();
  }
}

template <class P, int N, class Index>
__device__ __forceinline__ void store_converted_in(typename P::Out *out, Index lo, Index hi,
                                                   const typename P::Acc (&r)[N]) {
  if (lo <= 0) {
    store_converted<P, N, 1>(out, hi, r);
    return;
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (j >= lo && j < hi)
      out[j] = Convert<typename P::Out>::store(r[j]);
}

} // namespace scanjit
