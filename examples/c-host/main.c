/* A plain C host against libscanjit.so, built with pkg-config:
 *   cc main.c $(pkg-config --cflags --libs scanjit) -o c-host
 * Builds a spec from a tensor layout, inspects it (no GPU needed), then
 * prepares the kernel and prints its plan; without a GPU, says why not. */
#include <scanjit/scanjit.h>

#include <stdio.h>

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
  scanjit_release(kernel);
  return 0;
}
