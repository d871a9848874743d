/* iv-saved.h: saved model configurations — what the Model workspace's "Save" keeps and the
 * Compare page lines up — and their JSON file in the user data folder. */
#pragma once

#include "iv-model.h"

G_BEGIN_DECLS

typedef struct
{
  char *name;                /* "config1", … or the user's */
  char *model;               /* preset name, or the imported model's name */
  char *hf_config;           /* the config.json an imported model came from, or NULL */
  char *hardware;            /* hardware preset name, or the edited SIP's name */
  IvHardware *hardware_spec; /* the edited SIP itself, or NULL for a preset */
  IvConfig config;
} IvSaved;

void iv_saved_free (IvSaved *saved);
IvSaved *iv_saved_copy (const IvSaved *saved);

/* A GPtrArray of IvSaved. A file that does not exist is an empty list; one that cannot be
 * read as a configurations file fails with an error naming the file and the problem.
 * A configuration with a problem is left out and its problem added to @skipped (a new
 * array of strings, when not NULL). */
GPtrArray *iv_saved_load (const char *path, GPtrArray **skipped, GError **error);
/* As iv_saved_load, from @text (@len bytes) named @source in messages. */
GPtrArray *iv_saved_parse (const char *text, gsize len, const char *source, GPtrArray **skipped,
                           GError **error);
/* Keeps the file at @path under a name no earlier copy has (PATH.corrupt, then
 * PATH.corrupt-2, …) and returns that name; @move takes the original away, otherwise it
 * stays where it is and the copy has its bytes and permissions. A symbolic link at @path
 * is followed: the copy is made beside, and named after, the file it leads to. */
char *iv_saved_set_aside (const char *path, gboolean move, GError **error);
/* Written atomically: a crash leaves the previous file. */
/* The members of @config (mode, batch, tq, context, tp, cp, placements, ring, bytes)
 * into the object @builder is building: the keys saved configurations and
 * `inferview model --format json` share. */
void iv_config_build_json (JsonBuilder *builder, const IvConfig *config);
gboolean iv_saved_save (GPtrArray *list, const char *path, GError **error);
/* The first of config1, config2, … not yet in @list. */
char *iv_saved_next_name (GPtrArray *list);
/* The model and hardware a saved configuration names (presets, or @imported for models
 * that are not presets); NULL with @error naming what is missing. */
gboolean iv_saved_resolve (const IvSaved *saved, GPtrArray *imported, const IvModel **model,
                           const IvHardware **hardware, GError **error);
/* The default file: $XDG_DATA_HOME/inferview/model-configurations.json. */
char *iv_saved_default_path (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvSaved, iv_saved_free)

G_END_DECLS
