/* fuzz-model.c: libFuzzer target for the model's text parsers: the first byte picks the
 * Hugging Face config importer, the hardware JSON reader or the presets TSV reader; any
 * input must end in a model (then evaluated) or in an error naming the input. */
#include <glib.h>
#include <stdint.h>

#include "iv-model.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  if (size < 1)
    return 0;
  text = g_strndup ((const char *) data + 1, size - 1);
  switch (data[0] % 3)
    {
    case 0:
      {
        g_autoptr (IvModel) m = iv_model_from_hf_json (text, "fuzz", &error);
        g_assert ((m != NULL) != (error != NULL));
        if (m && m->d > 0 && m->H > 0 && m->n_layers > 0 && m->d < 1000000 && m->H < 100000
            && m->n_layers < 100000 && (m->E == 0 || m->k <= m->E))
          {
            IvConfig c;
            IvResult r;
            iv_config_init (&c);
            iv_model_evaluate (m, iv_hardware_find ("ring4"), &c, &r);
          }
        break;
      }
    case 1:
      {
        g_autoptr (IvHardware) hw = iv_hardware_from_json (text, "fuzz", &error);
        g_assert ((hw != NULL) != (error != NULL));
        break;
      }
    default:
      {
        g_autoptr (GPtrArray) p = iv_presets_parse_tsv (text, "fuzz", &error);
        g_assert ((p != NULL) != (error != NULL));
        break;
      }
    }
  return 0;
}
