/* fuzz-replay.c: runs a fuzz target over every file of a corpus folder (no libFuzzer). */
#include <glib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GDir) dir = g_dir_open (argv[i], 0, NULL);
      const char *name;

      while (dir && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);
          g_autofree char *data = NULL;
          gsize len;

          if (!g_file_get_contents (path, &data, &len, NULL))
            continue;
          LLVMFuzzerTestOneInput ((const uint8_t *) data, len);
          n++;
        }
    }
  g_print ("replayed %u inputs\n", n);
  return n > 0 ? 0 : 1;
}
