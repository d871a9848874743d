/* fuzz-sniff.c: libFuzzer target for the sniffer and the streaming JSON reader under
 * it (every decompressor included: inputs starting with gzip or zstd magic are decoded).
 * Built with -Dfuzzing=true and clang; fuzz-replay.c runs the same entry point over the
 * corpus in the unit suite so it keeps compiling and passing with gcc. */
#include <glib.h>
#include <stdint.h>

#include "iv-sniff.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "fuzz", &error);

  if (!in)
    return 0;
  {
    g_autoptr (IvSniffResult) r = iv_sniff_input (in, TRUE, NULL, NULL, NULL, &error);
    if (r)
      g_assert (r->kind != IV_KIND_UNKNOWN);
    else
      g_assert (error != NULL && error->message != NULL);
  }
  return 0;
}
