/* iv-model-state.c: properties over an IvConfig. The setters compare before they store
 * so that a control bound both ways (control → state → control) settles after one round,
 * and "changed" is what the view listens to: one re-evaluation per change, however many
 * properties a saved configuration sets at once. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-model-state.h"

struct _IvModelState
{
  GObject parent_instance;

  const IvModel *model;
  const IvHardware *hardware;
  IvConfig config;
  guint layer_kind;
  gint64 prefill_tq; /* T_q of the last prefill, restored when prefill is chosen again */
  guint frozen;      /* inside set_config: hold "changed" */
  gboolean pending;  /* something changed while frozen */
};

G_DEFINE_FINAL_TYPE (IvModelState, iv_model_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_MODEL,
  PROP_HARDWARE,
  PROP_MODE,
  PROP_BATCH,
  PROP_TQ,
  PROP_CONTEXT,
  PROP_TP,
  PROP_CP,
  PROP_TP_PLACE,
  PROP_CP_PLACE,
  PROP_RING,
  PROP_WEIGHT_BYTES,
  PROP_ACT_BYTES,
  PROP_KV_BYTES,
  PROP_PARTIAL_BYTES,
  PROP_LAYER_KIND,
  PROP_WEIGHT_FORMAT,
  PROP_ACT_FORMAT,
  PROP_KV_FORMAT,
  PROP_EP,
  PROP_IMBALANCE,
  PROP_OVERLAP,
  PROP_RESERVE,
  PROP_EP_PLACE,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
changed (IvModelState *self, guint prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  /* The layer kind is which part of the result is shown, not what is evaluated. */
  if (prop == PROP_LAYER_KIND)
    return;
  if (self->frozen)
    self->pending = TRUE;
  else
    g_signal_emit (self, signals[CHANGED], 0);
}

/* The int64 and double members each property stands for. */
static gint64 *
int_member (IvModelState *self, guint prop)
{
  switch (prop)
    {
    case PROP_BATCH:
      return &self->config.B;
    case PROP_TQ:
      return &self->config.T;
    case PROP_CONTEXT:
      return &self->config.P;
    case PROP_TP:
      return &self->config.t;
    case PROP_CP:
      return &self->config.c;
    case PROP_EP:
      return &self->config.e;
    default:
      return NULL;
    }
}

static double *
bytes_member (IvModelState *self, guint prop)
{
  switch (prop)
    {
    case PROP_WEIGHT_BYTES:
      return &self->config.e_w;
    case PROP_ACT_BYTES:
      return &self->config.e_a;
    case PROP_KV_BYTES:
      return &self->config.e_kv;
    case PROP_PARTIAL_BYTES:
      return &self->config.e_p;
    case PROP_IMBALANCE:
      return &self->config.imbalance;
    case PROP_RESERVE:
      return &self->config.reserve;
    default:
      return NULL;
    }
}

static int
enum_value (IvModelState *self, guint prop)
{
  switch (prop)
    {
    case PROP_MODE:
      return self->config.mode;
    case PROP_TP_PLACE:
      return self->config.place_tp;
    case PROP_CP_PLACE:
      return self->config.place_cp;
    case PROP_EP_PLACE:
      return self->config.place_ep;
    case PROP_RING:
      return self->config.ring;
    case PROP_WEIGHT_FORMAT:
      return self->config.f_w;
    case PROP_ACT_FORMAT:
      return self->config.f_a;
    case PROP_KV_FORMAT:
      return self->config.f_kv;
    case PROP_OVERLAP:
      return self->config.overlap;
    default:
      g_assert_not_reached ();
    }
}

static void
set_enum (IvModelState *self, guint prop, int value)
{
  if (enum_value (self, prop) == value)
    return;
  switch (prop)
    {
    case PROP_MODE:
      self->config.mode = (IvMode) value;
      break;
    case PROP_TP_PLACE:
      self->config.place_tp = (IvPlace) value;
      break;
    case PROP_CP_PLACE:
      self->config.place_cp = (IvPlace) value;
      break;
    case PROP_EP_PLACE:
      self->config.place_ep = (IvPlace) value;
      break;
    case PROP_RING:
      self->config.ring = (IvRing) value;
      break;
    case PROP_OVERLAP:
      self->config.overlap = value != 0;
      break;
    default:
      g_assert_not_reached ();
    }
  changed (self, prop);
}

static void hold (IvModelState *self);
static void release (IvModelState *self);

/* A format sets the bytes of its element too (§2.3): one "changed" for both. */
static void
choose_format (IvModelState *self, guint prop, int value)
{
  guint bytes_prop = prop == PROP_WEIGHT_FORMAT ? PROP_WEIGHT_BYTES
                     : prop == PROP_ACT_FORMAT  ? PROP_ACT_BYTES
                                                : PROP_KV_BYTES;
  double before = prop == PROP_WEIGHT_FORMAT ? self->config.e_w
                  : prop == PROP_ACT_FORMAT  ? self->config.e_a
                                             : self->config.e_kv;
  double after;

  if (enum_value (self, prop) == value && before == iv_format_bytes ((IvFormat) value))
    return;
  hold (self);
  if (prop == PROP_WEIGHT_FORMAT)
    iv_config_set_weight_format (&self->config, (IvFormat) value), after = self->config.e_w;
  else if (prop == PROP_ACT_FORMAT)
    iv_config_set_act_format (&self->config, (IvFormat) value), after = self->config.e_a;
  else
    iv_config_set_kv_format (&self->config, (IvFormat) value), after = self->config.e_kv;
  changed (self, prop);
  if (after != before)
    changed (self, bytes_prop);
  release (self);
}

static void
hold (IvModelState *self)
{
  self->frozen++;
  g_object_freeze_notify (G_OBJECT (self));
}

static void
release (IvModelState *self)
{
  g_object_thaw_notify (G_OBJECT (self));
  if (--self->frozen == 0 && self->pending)
    {
      self->pending = FALSE;
      g_signal_emit (self, signals[CHANGED], 0);
    }
}

/* The mode chosen on its own (a control): decode produces one token per step, so T_q
 * becomes 1, and prefill brings back the T_q it had — one "changed" for both. A whole
 * configuration (set_config) sets the mode and T_q it holds. */
static void
choose_mode (IvModelState *self, int mode)
{
  if ((int) self->config.mode == mode)
    return;
  hold (self);
  if (mode == IV_MODE_DECODE)
    self->prefill_tq = self->config.T;
  set_enum (self, PROP_MODE, mode);
  g_object_set (self, "tq", mode == IV_MODE_DECODE ? (gint64) 1 : MAX (self->prefill_tq, 1), NULL);
  release (self);
}

static void
iv_model_state_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  IvModelState *self = IV_MODEL_STATE (object);
  /* looked up once: -O3 cannot see that a second call returns the same pointer */
  gint64 *i = int_member (self, prop);
  double *d = bytes_member (self, prop);

  if (i)
    g_value_set_int64 (value, *i);
  else if (d)
    g_value_set_double (value, *d);
  else
    switch (prop)
      {
      case PROP_MODEL:
        g_value_set_pointer (value, (gpointer) self->model);
        break;
      case PROP_HARDWARE:
        g_value_set_pointer (value, (gpointer) self->hardware);
        break;
      case PROP_MODE:
      case PROP_TP_PLACE:
      case PROP_CP_PLACE:
      case PROP_EP_PLACE:
      case PROP_RING:
      case PROP_WEIGHT_FORMAT:
      case PROP_ACT_FORMAT:
      case PROP_KV_FORMAT:
        g_value_set_int (value, enum_value (self, prop));
        break;
      case PROP_OVERLAP:
        g_value_set_boolean (value, self->config.overlap);
        break;
      case PROP_LAYER_KIND:
        g_value_set_uint (value, self->layer_kind);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
      }
}

static void
iv_model_state_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  IvModelState *self = IV_MODEL_STATE (object);
  gint64 *i = int_member (self, prop);
  double *d = bytes_member (self, prop);

  if (i)
    {
      if (*i != g_value_get_int64 (value))
        *i = g_value_get_int64 (value), changed (self, prop);
    }
  else if (d)
    {
      if (*d != g_value_get_double (value))
        *d = g_value_get_double (value), changed (self, prop);
    }
  else
    switch (prop)
      {
      case PROP_MODEL:
        iv_model_state_set_model (self, g_value_get_pointer (value));
        break;
      case PROP_HARDWARE:
        iv_model_state_set_hardware (self, g_value_get_pointer (value));
        break;
      case PROP_MODE:
        choose_mode (self, g_value_get_int (value));
        break;
      case PROP_TP_PLACE:
      case PROP_CP_PLACE:
      case PROP_EP_PLACE:
      case PROP_RING:
        set_enum (self, prop, g_value_get_int (value));
        break;
      case PROP_WEIGHT_FORMAT:
      case PROP_ACT_FORMAT:
      case PROP_KV_FORMAT:
        choose_format (self, prop, g_value_get_int (value));
        break;
      case PROP_OVERLAP:
        set_enum (self, prop, g_value_get_boolean (value));
        break;
      case PROP_LAYER_KIND:
        if (self->layer_kind != g_value_get_uint (value))
          self->layer_kind = g_value_get_uint (value), changed (self, prop);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
      }
}

static void
iv_model_state_class_init (IvModelStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = iv_model_state_get_property;
  object_class->set_property = iv_model_state_set_property;

  properties[PROP_MODEL] = g_param_spec_pointer ("model", NULL, NULL, flags);
  properties[PROP_HARDWARE] = g_param_spec_pointer ("hardware", NULL, NULL, flags);
  properties[PROP_MODE] = g_param_spec_int ("mode", NULL, NULL, IV_MODE_PREFILL, IV_MODE_DECODE,
                                            IV_MODE_PREFILL, flags);
  /* The ranges are the model's own (iv_model_evaluate refuses beyond them with a reason);
   * here they only keep the types honest. */
  properties[PROP_BATCH] = g_param_spec_int64 ("batch", NULL, NULL, 1, G_MAXINT64, 1, flags);
  properties[PROP_TQ] = g_param_spec_int64 ("tq", NULL, NULL, 1, G_MAXINT64, 8192, flags);
  properties[PROP_CONTEXT] = g_param_spec_int64 ("context", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_TP] = g_param_spec_int64 ("tp", NULL, NULL, 1, G_MAXINT64, 4, flags);
  properties[PROP_CP] = g_param_spec_int64 ("cp", NULL, NULL, 1, G_MAXINT64, 1, flags);
  properties[PROP_TP_PLACE]
      = g_param_spec_int ("tp-place", NULL, NULL, IV_PLACE_PE, IV_PLACE_CUBE, IV_PLACE_PE, flags);
  properties[PROP_CP_PLACE]
      = g_param_spec_int ("cp-place", NULL, NULL, IV_PLACE_PE, IV_PLACE_CUBE, IV_PLACE_CUBE, flags);
  properties[PROP_RING]
      = g_param_spec_int ("ring", NULL, NULL, IV_RING_KV, IV_RING_QOML, IV_RING_KV, flags);
  properties[PROP_WEIGHT_BYTES] = g_param_spec_double ("weight-bytes", NULL, NULL, 0, 64, 2, flags);
  properties[PROP_ACT_BYTES] = g_param_spec_double ("act-bytes", NULL, NULL, 0, 64, 2, flags);
  properties[PROP_KV_BYTES] = g_param_spec_double ("kv-bytes", NULL, NULL, 0, 64, 2, flags);
  properties[PROP_PARTIAL_BYTES]
      = g_param_spec_double ("partial-bytes", NULL, NULL, 0, 64, 4, flags);
  properties[PROP_LAYER_KIND]
      = g_param_spec_uint ("layer-kind", NULL, NULL, 0, G_MAXUINT, 0, flags);
  /* §2.3's formats (IvFormat); setting one sets its bytes (the *-bytes above stay for a
   * size set on its own) */
  properties[PROP_WEIGHT_FORMAT]
      = g_param_spec_int ("weight-format", NULL, NULL, 0, IV_N_FORMATS - 1, IV_FORMAT_BF16, flags);
  properties[PROP_ACT_FORMAT]
      = g_param_spec_int ("act-format", NULL, NULL, 0, IV_N_FORMATS - 1, IV_FORMAT_BF16, flags);
  properties[PROP_KV_FORMAT]
      = g_param_spec_int ("kv-format", NULL, NULL, 0, IV_N_FORMATS - 1, IV_FORMAT_BF16, flags);
  /* §4.4, §4 and §5: EP size, its load imbalance, the overlapped all-reduce, the reserve */
  properties[PROP_EP] = g_param_spec_int64 ("ep", NULL, NULL, 1, G_MAXINT64, 1, flags);
  properties[PROP_IMBALANCE] = g_param_spec_double ("imbalance", NULL, NULL, 1, 64, 1, flags);
  properties[PROP_OVERLAP] = g_param_spec_boolean ("overlap", NULL, NULL, FALSE, flags);
  properties[PROP_RESERVE] = g_param_spec_double ("reserve", NULL, NULL, 0, 0.9, 0.1, flags);
  /* EP's group across cubes unless told otherwise, as the command line's --ep-place */
  properties[PROP_EP_PLACE]
      = g_param_spec_int ("ep-place", NULL, NULL, IV_PLACE_PE, IV_PLACE_CUBE, IV_PLACE_CUBE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* After any change: what the view re-evaluates on. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
}

void
iv_model_state_default_config (IvConfig *c)
{
  /* A prefill of 8192 tokens, TP 8 on PEs, CP on cubes: Llama-3.1-8B on ring4 fits
   * (TP 4 needs 103 % of a PE's usable memory), with the cubes' links still to show. */
  iv_config_init (c);
  c->mode = IV_MODE_PREFILL;
  c->B = 1;
  c->T = 8192;
  c->P = 0;
  c->t = 8;
  c->c = 1;
  c->place_tp = IV_PLACE_PE;
  c->place_cp = IV_PLACE_CUBE;
  c->ring = IV_RING_KV;
}

static void
iv_model_state_init (IvModelState *self)
{
  iv_model_state_default_config (&self->config);
  self->prefill_tq = self->config.mode == IV_MODE_PREFILL ? self->config.T : 8192;
}

IvModelState *
iv_model_state_new (void)
{
  return g_object_new (IV_TYPE_MODEL_STATE, NULL);
}

const IvModel *
iv_model_state_get_model (IvModelState *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STATE (self), NULL);
  return self->model;
}

void
iv_model_state_set_model (IvModelState *self, const IvModel *model)
{
  g_return_if_fail (IV_IS_MODEL_STATE (self));
  if (self->model == model)
    return;
  hold (self);
  self->model = model;
  changed (self, PROP_MODEL);
  /* a quantized checkpoint (quantization_config, §2.3) brings its formats; a model in
   * BF16 keeps what was chosen */
  if (model && (model->fmt_w != IV_FORMAT_BF16 || model->fmt_a != IV_FORMAT_BF16))
    {
      choose_format (self, PROP_WEIGHT_FORMAT, model->fmt_w);
      choose_format (self, PROP_ACT_FORMAT, model->fmt_a);
    }
  /* EP only for a MoE model */
  if (model && model->E == 0 && self->config.e != 1)
    self->config.e = 1, changed (self, PROP_EP);
  release (self);
}

const IvHardware *
iv_model_state_get_hardware (IvModelState *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STATE (self), NULL);
  return self->hardware;
}

void
iv_model_state_set_hardware (IvModelState *self, const IvHardware *hardware)
{
  g_return_if_fail (IV_IS_MODEL_STATE (self));
  if (self->hardware == hardware)
    return;
  hold (self);
  self->hardware = hardware;
  changed (self, PROP_HARDWARE);
  /* a GPU server has one PE per GPU: its TP and CP groups can only span GPUs */
  if (hardware && hardware->n_pe == 1)
    {
      set_enum (self, PROP_TP_PLACE, IV_PLACE_CUBE);
      set_enum (self, PROP_CP_PLACE, IV_PLACE_CUBE);
    }
  release (self);
}

void
iv_model_state_get_config (IvModelState *self, IvConfig *config)
{
  g_return_if_fail (IV_IS_MODEL_STATE (self) && config != NULL);
  *config = self->config;
}

void
iv_model_state_set_config (IvModelState *self, const IvConfig *c)
{
  g_return_if_fail (IV_IS_MODEL_STATE (self) && c != NULL);

  hold (self);
  set_enum (self, PROP_MODE, c->mode);
  g_object_set (self, "batch", c->B, "tq", c->T, "context", c->P, "tp", c->t, "cp", c->c,
                "weight-bytes", c->e_w, "act-bytes", c->e_a, "kv-bytes", c->e_kv, "partial-bytes",
                c->e_p, NULL);
  set_enum (self, PROP_TP_PLACE, c->place_tp);
  set_enum (self, PROP_CP_PLACE, c->place_cp);
  set_enum (self, PROP_RING, c->ring);
  /* the formats as they are, then the bytes as saved (a size may have been set on its
   * own): nothing changes, nothing is signalled */
  if (self->config.f_w != c->f_w)
    self->config.f_w = c->f_w, changed (self, PROP_WEIGHT_FORMAT);
  if (self->config.f_a != c->f_a)
    self->config.f_a = c->f_a, changed (self, PROP_ACT_FORMAT);
  if (self->config.f_kv != c->f_kv)
    self->config.f_kv = c->f_kv, changed (self, PROP_KV_FORMAT);
  g_object_set (self, "weight-bytes", c->e_w, "act-bytes", c->e_a, "kv-bytes", c->e_kv, "ep", c->e,
                "imbalance", c->imbalance, "reserve", c->reserve, NULL);
  set_enum (self, PROP_OVERLAP, c->overlap);
  set_enum (self, PROP_EP_PLACE, c->place_ep);
  if (c->mode == IV_MODE_PREFILL)
    self->prefill_tq = c->T;
  release (self);
}

guint
iv_model_state_get_layer_kind (IvModelState *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STATE (self), 0);
  return self->layer_kind;
}

IvSaved *
iv_model_state_to_saved (IvModelState *self, const char *name, const char *hf_config,
                         gboolean hardware_is_preset)
{
  IvSaved *sv;

  g_return_val_if_fail (IV_IS_MODEL_STATE (self), NULL);
  g_return_val_if_fail (self->model != NULL && self->hardware != NULL && name != NULL, NULL);

  sv = g_new0 (IvSaved, 1);
  sv->name = g_strdup (name);
  sv->model = g_strdup (self->model->name);
  sv->hf_config = g_strdup (hf_config);
  sv->hardware = g_strdup (self->hardware->name);
  sv->hardware_spec = hardware_is_preset ? NULL : iv_hardware_copy (self->hardware);
  sv->config = self->config;
  return sv;
}
