/* A plain C host against libscanjit.so, built with pkg-config (and the CUDA
 * runtime for its own buffers; scanjit needs none):
 *   cc main.c $(pkg-config --cflags --libs scanjit) -I$CUDA/include \
 *      -L$CUDA/lib64 -lcudart_static -ldl -lrt -lpthread -o c-host
 * Builds a spec from a tensor layout, inspects it (no GPU needed), then
 * prepares the kernel, scans ones with it and checks the result; without a
 * GPU, says why not. */
#include <scanjit/scanjit.h>

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

/* Scans rows of ones in reverse: element j of a row of n is n - j. */
static int check_reverse_cumsum_of_ones(const scanjit_kernel *kernel, int64_t rows, int64_t cols) {
  size_t count = (size_t)(rows * cols), bytes = count * sizeof(float);
  float *host = malloc(bytes);
  void *in = NULL, *out = NULL;
  for (size_t i = 0; i < count; ++i) host[i] = 1.0f;
  int ok = host && cudaMalloc(&in, bytes) == cudaSuccess && cudaMalloc(&out, bytes) == cudaSuccess &&
           cudaMemcpy(in, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
  if (ok && scanjit_launch(kernel, out, in, NULL, NULL) != SCANJIT_OK) {
    printf("error: %s\n", scanjit_last_error());
    ok = 0;
  }
  ok = ok && cudaMemcpy(host, out, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
  for (size_t i = 0; ok && i < count; ++i) ok = host[i] == (float)(cols - (int64_t)(i % cols));
  printf("reverse cumsum of ones over %lld rows of %lld: first %g, last %g (%s)\n", (long long)rows,
         (long long)cols, ok ? host[0] : 0.0, ok ? host[count - 1] : 0.0, ok ? "ok" : "WRONG");
  cudaFree(in);
  cudaFree(out);
  free(host);
  return ok;
}

int main(void) {
  printf("scanjit %s\n", scanjit_version());
  const int64_t sizes[] = {64, 3001}, strides[] = {3001, 1};
  scanjit_tensor x = {SCANJIT_F32, 2, sizes, strides};
  char spec[256];
  if (scanjit_spec_for(SCANJIT_SUM, &x, &x, 1, NULL, SCANJIT_REVERSE, spec, sizeof spec, NULL) != SCANJIT_OK) {
    printf("error: %s\n", scanjit_last_error());
    return 1;
  }
  scanjit_resources resources;
  if (scanjit_inspect(spec, "sm_90", &resources) != SCANJIT_OK) {
    printf("error: %s\n", scanjit_last_error());
    return 1;
  }
  printf("%s: %d registers, %lld bytes of dynamic shared memory on sm_90\n", spec, resources.registers,
         resources.dynamic_shared_bytes);
  scanjit_kernel *kernel = NULL;
  scanjit_status status = scanjit_prepare(spec, &kernel);
  if (status == SCANJIT_NO_DRIVER || status == SCANJIT_NO_DEVICE) {
    printf("no GPU: %s\n", scanjit_last_error());
    return 0;
  }
  if (status != SCANJIT_OK) {
    printf("error %d: %s\n", (int)status, scanjit_last_error());
    return 1;
  }
  printf("plan: %s\n", scanjit_kernel_plan(kernel));
  int ok = check_reverse_cumsum_of_ones(kernel, sizes[0], sizes[1]);
  scanjit_release(kernel);
  return ok ? 0 : 1;
}
