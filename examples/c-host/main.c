/* A plain C host against libscanjit.so, built with pkg-config:
 *   cc main.c $(pkg-config --cflags --libs scanjit) -o c-host
 * Prepares a kernel and prints its plan; without a GPU, prints why not. */
#include <scanjit/scanjit.h>

#include <stdio.h>

int main(void) {
  printf("scanjit %s\n", scanjit_version());
  scanjit_kernel *kernel = NULL;
  scanjit_status status = scanjit_prepare("sum f32[64,3001] dim=1 reverse", &kernel);
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
