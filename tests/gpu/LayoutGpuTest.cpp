// Non-contiguous, broadcast, strided-output and offset (unaligned by one
// element) tensors.
#include "GpuHarness.h"

using namespace scanjit;
using namespace scanjit::gpu_testing;

namespace {

TEST(Layouts, NonContiguousInputsAndOutputs) {
  SCANJIT_REQUIRE_GPU();
  const char *specs[] = {
      "sum f32[300,500] dim=1 strides=[1,300]",                  // transposed input
      "sum f32[300,500] dim=0 strides=[1,300]",                  // transposed, scanned contiguously
      "sum f32[100,1000] dim=1 strides=[1024,1]",                // padded rows
      "sum f32[100,1000] dim=1 strides=[1024,1] out_strides=[1030,1] reverse",
      "sum f32[100,64] dim=1 out_strides=[1,100] exclusive",     // transposed output
      "sum f32[64,1000] dim=1 strides=[0,1]",                    // broadcast rows
      "sum f32[64,1000] dim=1 strides=[1,0]",                    // scan over a broadcast dim
      "max i32[50,400] dim=1 strides=[800,2] mask",              // every other element
      "sum f32[200,300] dim=1 mask mask_strides=[1,200]",        // transposed mask
      "sum f32[200,300] dim=1 mask mask_strides=[0,1] reverse",  // broadcast mask
      "sum f32[200,300] dim=0 mask mask_strides=[300,0]",
      "sum f32[8,100,64] dim=1 strides=[12800,128,2]",           // strided inner dim
      "logsumexp f16[8,100,64] dim=2 strides=[6400,1,100] reverse exclusive",
      "sum i16[3,4,5,6] dim=2 strides=[1,3,12,60] out_strides=[120,30,6,1]",
  };
  for (const char *s : specs)
    expectCasePasses(s);
}

TEST(Layouts, PointersOffsetByOneElement) {
  SCANJIT_REQUIRE_GPU();
  CaseOptions offset;
  offset.inOffset = 1;
  offset.outOffset = 1;
  offset.maskOffset = 1;
  for (const char *s : {"sum f32[64,3000] dim=1 mask", "sum f32[64,3000] dim=1 reverse exclusive",
                        "sum f16[1000,37] dim=1 mask reverse", "sum f64[300,64] dim=0 mask",
                        "max i32[40,50] dim=1 strides=[1,40]", "sum u8[64,3000] dim=1",
                        "prod bf16[1000,64] dim=0 reverse", "sum f32[1,100000] dim=1 mask"})
    expectCasePasses(s, offset);
  // Staged plans: one unaligned pointer turns off bulk copies (input or
  // mask) or staged stores (output) and nothing else.
  CaseOptions outOnly;
  outOnly.outOffset = 3;
  for (const char *s : {"sum f32[64,3000] dim=1", "sum f32[1,100000] dim=1 exclusive", "sum i32[16,4096] dim=1"})
    expectCasePasses(s, outOnly);
  CaseOptions maskOnly;
  maskOnly.maskOffset = 5;
  for (const char *s : {"sum f32[64,3000] dim=1 mask", "sum f32[64,3008] dim=1 mask reverse",
                        "sum f32[1,100000] dim=1 mask"})
    expectCasePasses(s, maskOnly);
}

} // namespace
