/* fuzz-model.c: libFuzzer target for the model's text parsers: the first byte picks the
 * Hugging Face config importer, the hardware JSON reader, the presets TSV reader or the
 * saved-configurations reader; any input must end in a result (a model is then
 * evaluated) or in an error naming the input. */
#include <glib.h>
#include <stdint.h>

#include "iv-model.h"
#include "iv-saved.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  if (size < 1)
    return 0;
  text = g_strndup ((const char *) data + 1, size - 1);
  switch (data[0] % 4)
    {
    case 0:
      {
        g_autoptr (IvModel) m = iv_model_from_hf_json (text, "fuzz", &error);
        g_assert ((m != NULL) != (error != NULL));
        /* every model that passes the shape rules must evaluate cleanly */
        if (m)
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
    case 2:
      {
        g_autoptr (GPtrArray) p = iv_presets_parse_tsv (text, "fuzz", &error);
        g_assert ((p != NULL) != (error != NULL));
        break;
      }
    default:
      {
        /* the raw bytes: a saved file may hold anything, NULs included */
        g_autoptr (GPtrArray) skipped = NULL;
        g_autoptr (GPtrArray) list
            = iv_saved_parse ((const char *) data + 1, size - 1, "fuzz", &skipped, &error);
        g_assert ((list != NULL) != (error != NULL));
        for (guint i = 0; list && i < list->len; i++)
          {
            const IvSaved *sv = list->pdata[i];
            const IvModel *m;
            const IvHardware *hw;
            IvResult r;
            if (iv_saved_resolve (sv, NULL, &m, &hw, NULL))
              iv_model_evaluate (m, hw, &sv->config, &r);
          }
        break;
      }
    }
  return 0;
}
