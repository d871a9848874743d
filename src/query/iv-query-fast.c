/* iv-query-fast.c: GROUP BY over slice answered natively (§ Accelerated GROUP BY,
 * docs/queries.md). SQLite cannot hand an aggregation to a virtual table: it steps every
 * slice through xNext and xColumn, ~30 ns a row, where the trace's own by-name statistics
 * take ~5. A statement of the class below is recognised by a small tokenizer of SQLite's
 * lexical rules (quoting, comments, case), its groups computed from the trace's columns
 * (iv-query-trace.c), and SQLite runs the rest — HAVING, ORDER BY, LIMIT, the result's
 * names and types — over those few rows, handed to it as the table _iv_groups:
 *
 *   SELECT item, … FROM slice [[AS] x]
 *   [WHERE c op literal AND …]            c: ts, dur, track_id, depth (integers),
 *                                            name, category (strings); op: = == != <> < <= > >=
 *   GROUP BY k                            k: name, track_id, category or depth
 *   [HAVING expr] [ORDER BY term, …] [LIMIT n [OFFSET m | , m]]
 *
 * An item is k or an aggregate — count(*), count(c), and sum, min, max, avg, total of an
 * integer column of slice — with an optional alias; HAVING and ORDER BY use k, aliases,
 * aggregates, literals and operators. Anything else, and anything whose answer could
 * differ by a bit (a sum beyond 2^53, where the order of additions shows in a double),
 * runs through SQLite's general path unchanged. */
#define G_LOG_DOMAIN "iv-query"

#include <string.h>

#include "iv-query-private.h"

/* ---- the tokenizer: SQLite's lexical rules (tokenize.c), for what this class uses ---- */

typedef enum
{
  TOK_IDENT,  /* a bare identifier or keyword */
  TOK_QIDENT, /* "…", `…` or […] */
  TOK_STRING, /* '…' */
  TOK_INT,    /* a decimal integer that fits in 64 bits */
  TOK_NUMBER, /* any other number */
  TOK_OP,     /* an operator or punctuation */
  TOK_OTHER,  /* parameters, blobs, what the class never holds */
} TokType;

typedef struct
{
  TokType type;
  gsize start, end; /* bytes of the statement */
  char *text;       /* identifiers and strings unquoted; operators as written */
  gint64 value;     /* TOK_INT */
} Tok;

static void
tok_clear (gpointer p)
{
  g_free (((Tok *) p)->text);
}

static gboolean
ident_start (guchar c)
{
  return g_ascii_isalpha (c) || c == '_' || c >= 0x80;
}

static gboolean
ident_char (guchar c)
{
  return ident_start (c) || g_ascii_isdigit (c) || c == '$';
}

/* The text quoted from byte @at of @s (the opening quote) to @close, a doubled @close
 * standing for itself (but in [brackets], which take no escape); where it ends in
 * *@end. NULL when it is not closed. */
static char *
unquote (const char *s, gsize len, gsize at, char close, gsize *end)
{
  GString *out = g_string_new (NULL);
  gsize i = at + 1;
  while (i < len)
    {
      if (s[i] == close)
        {
          if (close != ']' && i + 1 < len && s[i + 1] == close)
            {
              g_string_append_c (out, close);
              i += 2;
              continue;
            }
          *end = i + 1;
          return g_string_free (out, FALSE);
        }
      g_string_append_c (out, s[i++]);
    }
  g_string_free (out, TRUE);
  return NULL;
}

/* The tokens of @sql (@len bytes), comments and blanks left out; NULL when it holds
 * something this tokenizer does not read (it then is no statement of the class). */
static GArray *
tokenize (const char *sql, gsize len)
{
  GArray *toks = g_array_new (FALSE, TRUE, sizeof (Tok));
  gsize i = 0;

  g_array_set_clear_func (toks, tok_clear);
  while (i < len)
    {
      guchar c = (guchar) sql[i];
      Tok t = { .type = TOK_OP, .start = i };

      if (g_ascii_isspace (c))
        {
          i++;
          continue;
        }
      if (c == '-' && i + 1 < len && sql[i + 1] == '-')
        {
          while (i < len && sql[i] != '\n')
            i++;
          continue;
        }
      if (c == '/' && i + 1 < len && sql[i + 1] == '*')
        {
          const char *close = g_strstr_len (sql + i + 2, (gssize) (len - i - 2), "*/");
          i = close ? (gsize) (close - sql) + 2 : len;
          continue;
        }
      if ((c == 'x' || c == 'X') && i + 1 < len && sql[i + 1] == '\'')
        {
          /* a blob literal */
          t.type = TOK_OTHER;
          if (!(t.text = unquote (sql, len, i + 1, '\'', &i)))
            goto fail;
        }
      else if (ident_start (c))
        {
          while (i < len && ident_char ((guchar) sql[i]))
            i++;
          t.type = TOK_IDENT;
          t.text = g_strndup (sql + t.start, i - t.start);
        }
      else if (c == '"' || c == '`' || c == '[')
        {
          t.type = TOK_QIDENT;
          if (!(t.text = unquote (sql, len, i, c == '[' ? ']' : (char) c, &i)))
            goto fail;
        }
      else if (c == '\'')
        {
          t.type = TOK_STRING;
          if (!(t.text = unquote (sql, len, i, '\'', &i)))
            goto fail;
        }
      else if (g_ascii_isdigit (c) || (c == '.' && i + 1 < len && g_ascii_isdigit (sql[i + 1])))
        {
          gboolean integer = TRUE;
          if (c == '0' && i + 1 < len && (sql[i + 1] == 'x' || sql[i + 1] == 'X'))
            {
              integer = FALSE; /* hexadecimal: left to SQLite */
              i += 2;
              while (i < len && g_ascii_isxdigit (sql[i]))
                i++;
            }
          else
            {
              while (i < len && g_ascii_isdigit (sql[i]))
                i++;
              if (i < len && sql[i] == '.')
                {
                  integer = FALSE;
                  i++;
                  while (i < len && g_ascii_isdigit (sql[i]))
                    i++;
                }
              if (i < len && (sql[i] == 'e' || sql[i] == 'E'))
                {
                  integer = FALSE;
                  i++;
                  if (i < len && (sql[i] == '+' || sql[i] == '-'))
                    i++;
                  while (i < len && g_ascii_isdigit (sql[i]))
                    i++;
                }
            }
          t.text = g_strndup (sql + t.start, i - t.start);
          t.type = TOK_NUMBER;
          if (integer)
            {
              guint64 v;
              /* past G_MAXINT64 SQLite reads a real */
              if (g_ascii_string_to_unsigned (t.text, 10, 0, G_MAXINT64, &v, NULL))
                {
                  t.type = TOK_INT;
                  t.value = (gint64) v;
                }
            }
        }
      else
        {
          static const char *const two[]
              = { "->>", "||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->" };
          gsize n = 1;
          for (guint k = 0; k < G_N_ELEMENTS (two); k++)
            if (strlen (two[k]) <= len - i && strncmp (sql + i, two[k], strlen (two[k])) == 0)
              {
                n = strlen (two[k]);
                break;
              }
          if (!strchr ("(),;.*+-/%<>=&|~!", (char) c) || c == 0)
            t.type = TOK_OTHER; /* parameters (? : @ $ #) and the rest */
          i += n;
          t.text = g_strndup (sql + t.start, n);
        }
      t.end = i;
      g_array_append_val (toks, t);
    }
  return toks;
fail:
  g_array_unref (toks);
  return NULL;
}

/* ---- the parser: the class of docs/queries.md, § Accelerated GROUP BY ---- */

static const char *const slice_names[IV_SLICE_N_COLUMNS]
    = { "id",   "ts",    "dur",       "track_id",   "category",
        "name", "depth", "parent_id", "arg_set_id", "self_dur" };

/* by IvAggFunc: count (*) and count (c) are both count */
static const char *const agg_names[] = { "count", "count", "sum", "min", "max", "avg", "total" };

/* The column of _iv_groups that holds key @k (its schema below). */
static int
key_column (IvSliceColumn k)
{
  switch (k)
    {
    case IV_SLICE_NAME:
      return 0;
    case IV_SLICE_TRACK:
      return 1;
    case IV_SLICE_CAT:
      return 2;
    default:
      return 3;
    }
}

#define MAX_AGGS 64

typedef struct
{
  const char *sql;
  GArray *toks; /* Tok */
  guint at;
  char *table; /* what the statement calls slice: its alias, or "slice" */
  GPtrArray *aliases;
  IvAggPlan plan;
} Parser;

typedef struct
{
  gsize start, end; /* the span replaced */
  guint agg;        /* by _iv_aN */
} Replace;

static const Tok *
tok (Parser *p, guint k)
{
  return p->at + k < p->toks->len ? &g_array_index (p->toks, Tok, p->at + k) : NULL;
}

static gboolean
is_kw (const Tok *t, const char *kw)
{
  return t && t->type == TOK_IDENT && g_ascii_strcasecmp (t->text, kw) == 0;
}

static gboolean
is_op (const Tok *t, const char *op)
{
  return t && t->type == TOK_OP && strcmp (t->text, op) == 0;
}

static gboolean
is_name (const Tok *t)
{
  return t && (t->type == TOK_IDENT || t->type == TOK_QIDENT);
}

static int
slice_column_of (const char *name)
{
  for (int c = 0; c < IV_SLICE_N_COLUMNS; c++)
    if (g_ascii_strcasecmp (name, slice_names[c]) == 0)
      return c;
  return -1;
}

/* A column of slice, written "col" or "x.col" (x the table's name in the statement): its
 * index, the tokens passed; -1 (nothing passed) otherwise. */
static int
parse_column (Parser *p)
{
  const Tok *a = tok (p, 0), *dot = tok (p, 1), *b = tok (p, 2);
  int col;

  if (!is_name (a))
    return -1;
  if (is_op (dot, "."))
    {
      if (!is_name (b) || g_ascii_strcasecmp (a->text, p->table) != 0
          || (col = slice_column_of (b->text)) < 0)
        return -1;
      p->at += 3;
      return col;
    }
  if ((col = slice_column_of (a->text)) < 0)
    return -1;
  p->at++;
  return col;
}

static gboolean
column_is_text (int col)
{
  return col == IV_SLICE_NAME || col == IV_SLICE_CAT;
}

/* An aggregate call at the parser's place: its index in plan.aggs (shared by the same
 * call written twice), the tokens passed; -1 when there is none there (nothing passed)
 * and -2 when there is one the class does not hold. */
static int
parse_agg (Parser *p)
{
  const Tok *f = tok (p, 0);
  IvAgg g = { 0 };
  int func = -1, col = 0;

  if (!f || f->type != TOK_IDENT || !is_op (tok (p, 1), "("))
    return -1;
  for (guint k = 1; k < G_N_ELEMENTS (agg_names); k++)
    if (g_ascii_strcasecmp (f->text, agg_names[k]) == 0)
      func = (int) k;
  if (func < 0)
    return -2; /* another function: perhaps an aggregate of its own (percentile, …) */
  p->at += 2;
  if (func == IV_AGG_COUNT && is_op (tok (p, 0), "*"))
    {
      func = IV_AGG_COUNT_STAR;
      p->at++;
    }
  else if ((col = parse_column (p)) < 0)
    return -2;
  /* sum and the rest of a string would be SQLite's conversions: left to it */
  if (func != IV_AGG_COUNT && func != IV_AGG_COUNT_STAR && column_is_text (col))
    return -2;
  if (!is_op (tok (p, 0), ")"))
    return -2;
  p->at++;
  /* a window (OVER) or FILTER is not a plain aggregate */
  if (is_kw (tok (p, 0), "OVER") || is_kw (tok (p, 0), "FILTER"))
    return -2;
  g.func = (IvAggFunc) func;
  g.column = func == IV_AGG_COUNT_STAR ? IV_SLICE_ID : (IvSliceColumn) col;
  for (guint k = 0; k < p->plan.aggs->len; k++)
    {
      const IvAgg *h = &g_array_index (p->plan.aggs, IvAgg, k);
      if (h->func == g.func && h->column == g.column)
        return (int) k;
    }
  if (p->plan.aggs->len >= MAX_AGGS)
    return -2;
  g_array_append_val (p->plan.aggs, g);
  return (int) p->plan.aggs->len - 1;
}

static gboolean
is_alias (Parser *p, const char *name)
{
  for (guint k = 0; k < p->aliases->len; k++)
    if (g_ascii_strcasecmp (p->aliases->pdata[k], name) == 0)
      return TRUE;
  return FALSE;
}

/* The tokens of HAVING or ORDER BY, up to a keyword of @stops: only the key, aliases,
 * aggregates of the class (replaced, into @repl), literals, operators and the keywords
 * that join them. FALSE on anything else: a bare column, another function, a
 * subquery. */
static gboolean
parse_expr (Parser *p, const char *const *stops, gboolean order, GArray *repl)
{
  static const char *const words[]
      = { "AND", "OR", "NOT", "IS", "NULL", "BETWEEN", "ASC", "DESC", "NULLS", "FIRST", "LAST" };
  guint begin = p->at;
  int depth = 0;
  guint terms = 1;
  gboolean first_desc = FALSE;

  while (tok (p, 0) && !is_op (tok (p, 0), ";"))
    {
      const Tok *t = tok (p, 0);
      gboolean stop = FALSE, word = FALSE;
      Replace r;
      int k;

      for (guint s = 0; stops[s]; s++)
        stop |= is_kw (t, stops[s]);
      if (stop)
        break;
      /* the ORDER BY's terms, and whether the first is descending (parse's sort of
       * the groups) */
      depth += is_op (t, "(") - is_op (t, ")");
      if (depth == 0 && is_op (t, ","))
        terms++;
      if (depth == 0 && terms == 1 && is_kw (t, "DESC"))
        first_desc = TRUE;
      r.start = t->start;
      if ((k = parse_agg (p)) >= 0)
        {
          r.end = g_array_index (p->toks, Tok, p->at - 1).end;
          r.agg = (guint) k;
          g_array_append_val (repl, r);
          continue;
        }
      if (k == -2)
        return FALSE;
      if ((k = parse_column (p)) >= 0)
        {
          if (k != (int) p->plan.key)
            return FALSE; /* a bare column: a row's value of the group, left to SQLite */
          continue;
        }
      if (is_name (t) && is_op (tok (p, 1), "("))
        return FALSE;
      for (guint w = 0; w < G_N_ELEMENTS (words); w++)
        word |= is_kw (t, words[w]);
      if (order && is_kw (t, "COLLATE") && is_name (tok (p, 1)))
        {
          p->at += 2;
          continue;
        }
      if (word || (is_name (t) && is_alias (p, t->text)) || t->type == TOK_INT
          || t->type == TOK_NUMBER || t->type == TOK_STRING
          || (t->type == TOK_OP && !is_op (t, ".")))
        {
          p->at++;
          continue;
        }
      return FALSE;
    }
  if (order)
    p->plan.desc = terms == 1 && first_desc;
  return p->at > begin;
}

/* column op literal, or literal op column. */
static gboolean
parse_cond (Parser *p)
{
  static const char *const ops[][2] = { { "=", "=" }, { "==", "=" }, { "!=", "!" }, { "<>", "!" },
                                        { "<", "<" }, { "<=", "l" }, { ">", ">" },  { ">=", "g" } };
  IvAggCond c = { 0 };
  gboolean left = TRUE, neg = FALSE;
  const Tok *lit = NULL;
  int col = parse_column (p);
  char op = 0;

  if (col < 0)
    left = FALSE;
  else if (col != IV_SLICE_TS && col != IV_SLICE_DUR && col != IV_SLICE_TRACK
           && col != IV_SLICE_DEPTH && col != IV_SLICE_NAME && col != IV_SLICE_CAT)
    return FALSE;
  if (!left)
    {
      /* the literal first */
      if (is_op (tok (p, 0), "-") || is_op (tok (p, 0), "+"))
        {
          neg = is_op (tok (p, 0), "-");
          p->at++;
        }
      lit = tok (p, 0);
      p->at++;
    }
  for (guint k = 0; k < G_N_ELEMENTS (ops) && tok (p, 0); k++)
    if (is_op (tok (p, 0), ops[k][0]))
      op = ops[k][1][0];
  if (!op)
    return FALSE;
  p->at++;
  if (left)
    {
      if (is_op (tok (p, 0), "-") || is_op (tok (p, 0), "+"))
        {
          neg = is_op (tok (p, 0), "-");
          p->at++;
        }
      lit = tok (p, 0);
      p->at++;
    }
  else
    {
      if ((col = parse_column (p)) < 0)
        return FALSE;
      if (col != IV_SLICE_TS && col != IV_SLICE_DUR && col != IV_SLICE_TRACK
          && col != IV_SLICE_DEPTH && col != IV_SLICE_NAME && col != IV_SLICE_CAT)
        return FALSE;
      /* the column to the left: 5 < ts is ts > 5 */
      op = op == '<' ? '>' : op == '>' ? '<' : op == 'l' ? 'g' : op == 'g' ? 'l' : op;
    }
  if (!lit)
    return FALSE;
  c.column = (IvSliceColumn) col;
  c.op = op;
  if (column_is_text (col))
    {
      /* a string with a string: BINARY; a number with a string is SQLite's affinity */
      if (lit->type != TOK_STRING || neg)
        return FALSE;
      c.text = g_strdup (lit->text);
    }
  else
    {
      if (lit->type != TOK_INT)
        return FALSE;
      c.value = neg ? -lit->value : lit->value;
    }
  g_array_append_val (p->plan.conds, c);
  return TRUE;
}

static void
cond_clear (gpointer data)
{
  g_free (((IvAggCond *) data)->text);
}

/* @text from @from to @to with each replacement in @repl (in order) made. */
static void
append_replaced (GString *out, const char *sql, gsize from, gsize to, GArray *repl)
{
  for (guint k = 0; k < repl->len; k++)
    {
      const Replace *r = &g_array_index (repl, Replace, k);
      if (r->start < from || r->end > to)
        continue;
      g_string_append_len (out, sql + from, (gssize) (r->start - from));
      g_string_append_printf (out, "_iv_a%u", r->agg);
      from = r->end;
    }
  g_string_append_len (out, sql + from, (gssize) (to - from));
}

typedef struct
{
  gsize start, end;  /* the item's expression */
  gboolean agg;      /* an aggregate (else the key) */
  guint index;       /* the aggregate */
  const char *alias; /* NULL: none */
} Item;

/* The statement SQLite runs over _iv_groups instead of @sql, NULL when @sql is not in
 * the class; @plan filled. */
static char *
parse (Parser *p)
{
  static const char *const having_stops[] = { "ORDER", "LIMIT", NULL };
  static const char *const order_stops[] = { "LIMIT", NULL };
  g_autoptr (GArray) items = g_array_new (FALSE, TRUE, sizeof (Item));
  g_autoptr (GArray) having = g_array_new (FALSE, FALSE, sizeof (Replace));
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (Replace));
  gsize having_from = 0, having_to = 0, order_from = 0, order_to = 0, limit_from = 0, limit_to = 0;
  GString *out;
  int key;

  if (!is_kw (tok (p, 0), "SELECT"))
    return NULL;
  /* the name slice goes by (FROM slice [AS] x), which the items before it may use */
  {
    int depth = 0;
    for (guint k = 0; k < p->toks->len; k++)
      {
        const Tok *t = &g_array_index (p->toks, Tok, k);
        depth += is_op (t, "(") - is_op (t, ")");
        if (depth == 0 && is_kw (t, "FROM"))
          {
            const Tok *alias = k + 2 < p->toks->len ? t + 2 : NULL;
            if (alias && is_kw (alias, "AS"))
              alias = k + 3 < p->toks->len ? t + 3 : NULL;
            if (alias && is_name (alias) && !is_kw (alias, "WHERE") && !is_kw (alias, "GROUP"))
              {
                g_free (p->table);
                p->table = g_strdup (alias->text);
              }
            break;
          }
      }
  }
  p->at++;
  /* the items, checked against the key once GROUP BY has named it */
  for (;;)
    {
      Item it = { .start = tok (p, 0) ? tok (p, 0)->start : 0 };
      const Tok *t;
      int k;

      if ((k = parse_agg (p)) >= 0)
        {
          it.agg = TRUE;
          it.index = (guint) k;
        }
      else if (k == -2)
        return NULL;
      else if ((k = parse_column (p)) >= 0)
        it.index = (guint) k;
      else
        return NULL;
      it.end = g_array_index (p->toks, Tok, p->at - 1).end;
      t = tok (p, 0);
      if (is_kw (t, "AS"))
        {
          p->at++;
          if (!is_name (tok (p, 0)))
            return NULL;
          it.alias = tok (p, 0)->text;
          p->at++;
        }
      else if (t && (t->type == TOK_QIDENT || (t->type == TOK_IDENT && !is_kw (t, "FROM"))))
        {
          it.alias = t->text;
          p->at++;
        }
      if (it.alias)
        {
          /* an alias a column could stand for (SQLite resolves a column first in HAVING)
           * or that could be taken for _iv_groups' own */
          if (slice_column_of (it.alias) >= 0 || g_ascii_strncasecmp (it.alias, "_iv_", 4) == 0)
            return NULL;
          g_ptr_array_add (p->aliases, (gpointer) it.alias);
        }
      g_array_append_val (items, it);
      if (is_op (tok (p, 0), ","))
        {
          p->at++;
          continue;
        }
      if (is_kw (tok (p, 0), "FROM"))
        break;
      return NULL;
    }
  p->at++;
  if (!is_name (tok (p, 0)) || g_ascii_strcasecmp (tok (p, 0)->text, "slice") != 0
      || is_op (tok (p, 1), "."))
    return NULL;
  p->at++;
  if (is_kw (tok (p, 0), "AS"))
    p->at++;
  {
    /* the alias, as found above */
    const Tok *alias = tok (p, 0);
    if (alias && is_name (alias) && !is_kw (alias, "WHERE") && !is_kw (alias, "GROUP"))
      p->at++;
  }
  if (is_kw (tok (p, 0), "WHERE"))
    {
      p->at++;
      for (;;)
        {
          if (!parse_cond (p))
            return NULL;
          if (!is_kw (tok (p, 0), "AND"))
            break;
          p->at++;
        }
    }
  if (!is_kw (tok (p, 0), "GROUP") || !is_kw (tok (p, 1), "BY"))
    return NULL;
  p->at += 2;
  key = parse_column (p);
  if (key != IV_SLICE_NAME && key != IV_SLICE_TRACK && key != IV_SLICE_CAT && key != IV_SLICE_DEPTH)
    return NULL;
  p->plan.key = (IvSliceColumn) key;
  /* the items: the key, or aggregates */
  for (guint k = 0; k < items->len; k++)
    {
      const Item *it = &g_array_index (items, Item, k);
      if (!it->agg && it->index != (guint) key)
        return NULL;
    }
  if (is_kw (tok (p, 0), "HAVING"))
    {
      p->at++;
      having_from = tok (p, 0) ? tok (p, 0)->start : 0;
      if (!parse_expr (p, having_stops, FALSE, having))
        return NULL;
      having_to = g_array_index (p->toks, Tok, p->at - 1).end;
    }
  if (is_kw (tok (p, 0), "ORDER") && is_kw (tok (p, 1), "BY"))
    {
      p->at += 2;
      order_from = tok (p, 0) ? tok (p, 0)->start : 0;
      if (!parse_expr (p, order_stops, TRUE, order))
        return NULL;
      order_to = g_array_index (p->toks, Tok, p->at - 1).end;
    }
  if (is_kw (tok (p, 0), "LIMIT"))
    {
      p->at++;
      limit_from = tok (p, 0) ? tok (p, 0)->start : 0;
      while (tok (p, 0) && !is_op (tok (p, 0), ";"))
        {
          const Tok *t = tok (p, 0);
          if (t->type != TOK_INT && !is_op (t, ",") && !is_op (t, "-") && !is_op (t, "+")
              && !is_kw (t, "OFFSET"))
            return NULL;
          p->at++;
        }
      if (p->at == 0 || limit_from >= g_array_index (p->toks, Tok, p->at - 1).end)
        return NULL;
      limit_to = g_array_index (p->toks, Tok, p->at - 1).end;
    }
  if (is_op (tok (p, 0), ";"))
    p->at++;
  if (tok (p, 0))
    return NULL;

  /* the general path gives its groups sorted by the key: SQLite's sorter, or slice's
   * scan by name, whose groups come in the names' BINARY order (slice_best_index) */
  p->plan.sorted = TRUE;

  out = g_string_new ("SELECT ");
  for (guint k = 0; k < items->len; k++)
    {
      const Item *it = &g_array_index (items, Item, k);
      if (k)
        g_string_append (out, ", ");
      if (it->agg)
        {
          /* named as SQLite names it: the alias, or the expression as written */
          g_autofree char *span = g_strndup (p->sql + it->start, it->end - it->start);
          g_autofree char *name = _iv_query_quote (it->alias ? it->alias : span);
          g_string_append_printf (out, "_iv_a%u AS %s", it->index, name);
        }
      else
        {
          g_string_append_len (out, p->sql + it->start, (gssize) (it->end - it->start));
          if (it->alias)
            {
              g_autofree char *name = _iv_query_quote (it->alias);
              g_string_append_printf (out, " AS %s", name);
            }
        }
    }
  {
    g_autofree char *table = _iv_query_quote (p->table);
    g_string_append_printf (out, " FROM _iv_groups AS %s", table);
  }
  if (having_to > having_from)
    {
      g_string_append (out, " WHERE ");
      append_replaced (out, p->sql, having_from, having_to, having);
    }
  if (order_to > order_from)
    {
      g_string_append (out, " ORDER BY ");
      append_replaced (out, p->sql, order_from, order_to, order);
    }
  if (limit_to > limit_from)
    {
      g_string_append (out, " LIMIT ");
      g_string_append_len (out, p->sql + limit_from, (gssize) (limit_to - limit_from));
    }
  return g_string_free (out, FALSE);
}

/* Whether the names the statement reads are this connection's tables: a view or a
 * temporary table the user made named slice (or _iv_groups) would stand in their
 * place. */
static gboolean
names_are_ours (IvQuery *q)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ours = FALSE;

  if (sqlite3_prepare_v2 (_iv_query_db (q),
                          "SELECT (SELECT count(*) FROM sqlite_schema WHERE lower(name) IN "
                          "('slice', '_iv_groups')) + (SELECT count(*) FROM sqlite_temp_schema "
                          "WHERE lower(name) IN ('slice', '_iv_groups'))",
                          -1, &stmt, NULL)
          == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    ours = sqlite3_column_int (stmt, 0) == 0;
  sqlite3_finalize (stmt);
  return ours;
}

IvAggOutcome
_iv_query_fast_prepare (IvQuery *q, const char *sql, gsize len, sqlite3_stmt **out)
{
  IvQueryTable *slice = _iv_query_find_table (q, "slice");
  Parser p = { .sql = sql };
  g_autofree char *rewritten = NULL;
  IvAggGroups *groups = NULL;
  IvAggOutcome outcome;
  sqlite3_stmt *stmt = NULL;

  *out = NULL;
  if (!slice)
    return IV_AGG_DECLINED;
  if (!(p.toks = tokenize (sql, len)))
    return IV_AGG_DECLINED;
  p.aliases = g_ptr_array_new ();
  p.table = g_strdup ("slice");
  p.plan.aggs = g_array_new (FALSE, TRUE, sizeof (IvAgg));
  p.plan.conds = g_array_new (FALSE, TRUE, sizeof (IvAggCond));
  g_array_set_clear_func (p.plan.conds, cond_clear);
  rewritten = parse (&p);
  outcome = IV_AGG_DECLINED;
  if (rewritten && names_are_ours (q))
    outcome = _iv_query_slice_aggregate (slice, &p.plan, &groups);
  if (outcome == IV_AGG_DONE)
    {
      groups->key_column = key_column (p.plan.key);
      _iv_query_fast_set_groups (q, groups);
      if (sqlite3_prepare_v2 (_iv_query_db (q), rewritten, -1, &stmt, NULL) != SQLITE_OK)
        {
          /* not expected: the general path answers instead */
          g_debug ("the native GROUP BY's statement failed (%s): %s",
                   sqlite3_errmsg (_iv_query_db (q)), rewritten);
          sqlite3_finalize (stmt);
          stmt = NULL;
          _iv_query_fast_set_groups (q, NULL);
          outcome = IV_AGG_DECLINED;
        }
    }
  *out = stmt;
  g_array_unref (p.toks);
  g_ptr_array_unref (p.aliases);
  g_free (p.table);
  g_array_unref (p.plan.aggs);
  g_array_unref (p.plan.conds);
  return outcome;
}

void
_iv_query_fast_finish (IvQuery *q)
{
  _iv_query_fast_set_groups (q, NULL);
}

/* ---- _iv_groups: the groups, as a table SQLite reads ---- */

typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
  guint row;
} GroupsCursor;

static int
groups_best_index (sqlite3_vtab *vtab, sqlite3_index_info *info)
{
  IvQuery *q = ((IvQueryVtab *) vtab)->table->data;
  IvAggGroups *g = _iv_query_fast_groups (q);
  info->estimatedRows = g ? g->n_rows : 1;
  info->estimatedCost = (double) info->estimatedRows + 1;
  return SQLITE_OK;
}

static int
groups_open (sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
  return _iv_query_cursor_open (vtab, sizeof (GroupsCursor), out);
}

static int
groups_filter (sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
               sqlite3_value **argv)
{
  GroupsCursor *c = (GroupsCursor *) cur;
  IvAggGroups *g = _iv_query_fast_groups (c->table->data);
  (void) idx_num, (void) idx_str, (void) argc, (void) argv;
  c->row = 0;
  /* what iv_query_rows_visited () shows of it: that the native path answered */
  c->table->visited += 1 + (g ? g->n_rows : 0);
  return SQLITE_OK;
}

static int
groups_next (sqlite3_vtab_cursor *cur)
{
  ((GroupsCursor *) cur)->row++;
  return SQLITE_OK;
}

static int
groups_eof (sqlite3_vtab_cursor *cur)
{
  GroupsCursor *c = (GroupsCursor *) cur;
  IvAggGroups *g = _iv_query_fast_groups (c->table->data);
  return !g || c->row >= g->n_rows;
}

static int
groups_column (sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
  GroupsCursor *c = (GroupsCursor *) cur;
  IvAggGroups *g = _iv_query_fast_groups (c->table->data);
  const IvAggValue *v = NULL;

  if (!g || c->row >= g->n_rows)
    {
      sqlite3_result_null (ctx);
      return SQLITE_OK;
    }
  /* the key in its own column, the aggregates after the four keys */
  if (col < 4)
    {
      const IvAggValue *k = &g_array_index (g->values, IvAggValue, (gsize) c->row * g->stride);
      if (col == g->key_column)
        v = k;
    }
  else if ((guint) (col - 4) + 1 < g->stride)
    v = &g_array_index (g->values, IvAggValue, (gsize) c->row * g->stride + 1 + (guint) (col - 4));
  switch (v ? v->type : SQLITE_NULL)
    {
    case SQLITE_INTEGER:
      sqlite3_result_int64 (ctx, v->i);
      break;
    case SQLITE_FLOAT:
      sqlite3_result_double (ctx, v->d);
      break;
    case SQLITE_TEXT:
      sqlite3_result_text (ctx, v->s, -1, SQLITE_STATIC);
      break;
    default:
      sqlite3_result_null (ctx);
      break;
    }
  return SQLITE_OK;
}

static int
groups_rowid (sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
  *rowid = ((GroupsCursor *) cur)->row;
  return SQLITE_OK;
}

static const sqlite3_module groups_module = {
  .xConnect = _iv_query_vt_connect,
  .xBestIndex = groups_best_index,
  .xDisconnect = _iv_query_vt_disconnect,
  .xDestroy = _iv_query_vt_disconnect,
  .xOpen = groups_open,
  .xClose = _iv_query_cursor_close,
  .xFilter = groups_filter,
  .xNext = groups_next,
  .xEof = groups_eof,
  .xColumn = groups_column,
  .xRowid = groups_rowid,
};

void
_iv_query_fast_register (IvQuery *q)
{
  g_autoptr (GPtrArray) cols = g_ptr_array_new_with_free_func (g_free);
  IvQueryTable *t;

  /* the keys under slice's names and types (a result column of one is named and typed as
   * slice's is), the aggregates with no type (as an expression's result has none) */
  g_ptr_array_add (cols, g_strdup ("name TEXT"));
  g_ptr_array_add (cols, g_strdup ("track_id INTEGER"));
  g_ptr_array_add (cols, g_strdup ("category TEXT"));
  g_ptr_array_add (cols, g_strdup ("depth INTEGER"));
  for (guint k = 0; k < MAX_AGGS; k++)
    g_ptr_array_add (cols, g_strdup_printf ("_iv_a%u", k));
  t = _iv_query_table_add_array (q, "_iv_groups", cols, &groups_module);
  t->data = q;
}
