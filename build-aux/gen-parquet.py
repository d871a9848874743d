#!/usr/bin/env python3
"""Writes Parquet files laid out as pyarrow writes AIPerf's server_metrics_export.parquet,
without pyarrow: the test files of Inferview's Parquet reader, and the Parquet twin of a
run's server_metrics_export.jsonl.

pyarrow is not in Debian 12 and PyPI is out of reach here, so the format is written by
hand from apache/parquet-format (parquet.thrift, Encodings.md, README.md): the Thrift
compact protocol for the footer and page headers, PLAIN values, dictionary pages with
RLE_DICTIONARY (or, as format 1.0 writers do, PLAIN_DICTIONARY) indices, definition
levels in the RLE/bit-packed hybrid, data pages v1 and v2, and pages uncompressed, Snappy
(a compressor written here) or zstd (the `zstd` tool) compressed. The layout follows
pyarrow's writer (parquet-cpp): "PAR1", for each row group each column's chunk (its
dictionary page, then data pages), the FileMetaData footer, its length, "PAR1"; every
column nullable (pa.field's default), strings annotated STRING/UTF8, statistics in page
headers and chunk metadata, key-value metadata with AIPerf's "aiperf.*" keys.

The schema and rows are those of AIPerf's ServerMetricsParquetExporter
(src/aiperf/server_metrics/parquet_exporter.py): endpoint_url, metric_name,
metric_type, unit, description, timestamp_ns, the label columns sorted, value, sum,
count, bucket_le, bucket_count; a gauge's raw value, a counter's increase since the
first scrape, a histogram's sum, count and buckets (one row per bucket) likewise.

    gen-parquet.py tests DIR        the reader's test files (tests/data/parquet)
    gen-parquet.py run RUN_FOLDER   RUN_FOLDER/server_metrics_export.parquet from its
                                    server_metrics_export.jsonl (and _metadata.json)
"""
import json
import os
import struct
import subprocess
import sys

# ---------------------------------------------------------------- Thrift compact protocol

T_STOP, T_TRUE, T_FALSE, T_BYTE, T_I16, T_I32, T_I64, T_DOUBLE, T_BINARY, T_LIST, T_SET, T_MAP, T_STRUCT = range(13)


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


class Struct:
    """A Thrift structure: fields (id, type, value) written in id order."""

    def __init__(self, *fields):
        self.fields = [f for f in fields if f is not None and f[2] is not None]

    def encode(self):
        out = bytearray()
        last = 0
        for fid, ftype, value in sorted(self.fields, key=lambda f: f[0]):
            if ftype == "bool":
                t = T_TRUE if value else T_FALSE
            else:
                t = ftype
            delta = fid - last
            if 0 < delta <= 15:
                out.append((delta << 4) | t)
            else:
                out.append(t)
                out += varint(zigzag(fid))
            last = fid
            if ftype != "bool":
                out += encode_value(ftype, value)
        out.append(T_STOP)
        return bytes(out)


class List:
    def __init__(self, elem_type, items):
        self.elem_type = elem_type
        self.items = items


def encode_value(t, v):
    if t in (T_I16, T_I32, T_I64):
        return varint(zigzag(v))
    if t == T_BYTE:
        return bytes([v & 0xFF])
    if t == T_DOUBLE:
        return struct.pack("<d", v)
    if t == T_BINARY:
        b = v.encode() if isinstance(v, str) else bytes(v)
        return varint(len(b)) + b
    if t == T_STRUCT:
        return v.encode()
    if t == T_LIST:
        n = len(v.items)
        head = bytes([(n << 4) | v.elem_type]) if n < 15 else bytes([0xF0 | v.elem_type]) + varint(n)
        return head + b"".join(encode_value(v.elem_type, x) for x in v.items)
    raise ValueError(t)


# ---------------------------------------------------------------- compression

def snappy_compress(data, copy4=False):
    """Raw Snappy (format_description.txt): a greedy compressor with a hash of 4-byte
    sequences; copies of 4 to 64 bytes as 1-, 2- or 4-byte-offset elements (all 4-byte
    ones when copy4, which decoders must accept too)."""
    out = bytearray(varint(len(data)))
    table = {}
    i = lit = 0
    n = len(data)

    def literal(a, b):
        while a < b:
            m = min(b - a, 65536)
            if m <= 60:
                out.append((m - 1) << 2)
            elif m <= 256:
                out.append(60 << 2)
                out.append(m - 1)
            else:
                out.append(61 << 2)
                out.extend(struct.pack("<H", m - 1))
            out.extend(data[a : a + m])
            a += m

    while i + 4 <= n:
        key = data[i : i + 4]
        cand = table.get(key)
        table[key] = i
        if cand is not None and i - cand < 65536 * (65536 if copy4 else 1):
            length = 4
            while i + length < n and data[cand + length] == data[i + length] and length < 64:
                length += 1
            literal(lit, i)
            off = i - cand
            if copy4:
                out.append(((length - 1) << 2) | 3)
                out += struct.pack("<I", off)
            elif 4 <= length <= 11 and off < 2048:
                out.append(((off >> 8) << 5) | ((length - 4) << 2) | 1)
                out.append(off & 0xFF)
            elif off < 65536:
                out.append(((length - 1) << 2) | 2)
                out += struct.pack("<H", off)
            else:
                out.append(((length - 1) << 2) | 3)
                out += struct.pack("<I", off)
            i += length
            lit = i
        else:
            i += 1
    literal(lit, n)
    return bytes(out)


def zstd_compress(data):
    return subprocess.run(["zstd", "-q", "-19", "-c"], input=data, stdout=subprocess.PIPE, check=True).stdout


CODECS = {"none": 0, "snappy": 1, "zstd": 6}


def compress(codec, data, copy4=False):
    if codec == "none":
        return data
    if codec == "snappy":
        return snappy_compress(data, copy4)
    return zstd_compress(data)


# ---------------------------------------------------------------- encodings

PLAIN, PLAIN_DICTIONARY, RLE, RLE_DICTIONARY = 0, 2, 3, 8
BYTE_ARRAY, INT64, DOUBLE, INT32 = 6, 2, 5, 1


def plain(ptype, values):
    if ptype == INT64:
        return b"".join(struct.pack("<q", v) for v in values)
    if ptype == INT32:
        return b"".join(struct.pack("<i", v) for v in values)
    if ptype == DOUBLE:
        return b"".join(struct.pack("<d", v) for v in values)
    out = bytearray()
    for v in values:
        b = v.encode()
        out += struct.pack("<I", len(b)) + b
    return bytes(out)


def bit_width(n):
    return max(n, 0).bit_length()


def hybrid(values, width):
    """The RLE/bit-packed hybrid as parquet-cpp writes it: a run of 8 or more equal
    values as an RLE run, the rest bit-packed in groups of 8 (the last group padded)."""
    out = bytearray()
    i, n = 0, len(values)
    pending = []

    def flush_packed():
        nonlocal pending
        if not pending:
            return
        groups = (len(pending) + 7) // 8
        vals = pending + [0] * (groups * 8 - len(pending))
        out.extend(varint((groups << 1) | 1))
        acc = nbits = 0
        packed = bytearray()
        for v in vals:
            acc |= v << nbits
            nbits += width
            while nbits >= 8:
                packed.append(acc & 0xFF)
                acc >>= 8
                nbits -= 8
        if nbits:
            packed.append(acc & 0xFF)
        out.extend(packed)
        pending = []

    while i < n:
        j = i
        while j < n and values[j] == values[i]:
            j += 1
        # a run of 8 or more, starting on a group boundary of what is pending
        if j - i >= 8 and len(pending) % 8 == 0:
            flush_packed()
            out.extend(varint((j - i) << 1))
            out.extend(values[i].to_bytes((width + 7) // 8, "little"))
            i = j
        else:
            pending.append(values[i])
            i += 1
    flush_packed()
    return bytes(out)


# ---------------------------------------------------------------- the writer

def stats_for(ptype, values):
    present = [v for v in values if v is not None]
    nulls = len(values) - len(present)
    if not present:
        return Struct((3, T_I64, nulls))
    lo, hi = min(present), max(present)
    return Struct(
        (3, T_I64, nulls),
        (5, T_BINARY, plain(ptype, [hi])[4:] if ptype == BYTE_ARRAY else plain(ptype, [hi])),
        (6, T_BINARY, plain(ptype, [lo])[4:] if ptype == BYTE_ARRAY else plain(ptype, [lo])),
        (7, "bool", True),
        (8, "bool", True),
    )


class Column:
    def __init__(self, name, ptype, optional=True):
        self.name, self.ptype, self.optional = name, ptype, optional


def write_chunk(out, col, values, opts):
    """One column chunk at the end of @out; returns its ColumnMetaData."""
    codec = opts["codec"]
    enc = opts["encoding"]  # "dict", "plaindict" (format 1.0), "plain", "fallback"
    v2 = opts["page_version"] == 2
    page_rows = opts.get("page_rows", 1 << 30)
    start = len(out)
    dict_offset = None
    encodings = set()
    uncompressed_total = 0
    present = [v for v in values if v is not None]

    dictionary, index = [], {}
    use_dict = enc in ("dict", "plaindict", "fallback")
    hostile = opts.get("hostile", {}).get(col.name, "")
    if use_dict:
        for v in present:
            if v not in index:
                index[v] = len(dictionary)
                dictionary.append(v)
        # a dictionary of one entry keeps bit width 0 for its indices, as parquet-cpp does
        body = plain(col.ptype, dictionary[:-1] if hostile == "dict-short" else dictionary)
        comp = compress(codec, body, opts.get("copy4", False))
        header = Struct(
            (1, T_I32, 2),
            (2, T_I32, len(body)),
            (3, T_I32, len(comp)),
            (7, T_STRUCT, Struct((1, T_I32, len(dictionary) - (hostile == "dict-short")),
                                 (2, T_I32, PLAIN_DICTIONARY if enc == "plaindict" else PLAIN))),
        ).encode()
        dict_offset = len(out)
        out += header + comp
        uncompressed_total += len(header) + len(body)
        encodings.add(PLAIN_DICTIONARY if enc == "plaindict" else PLAIN)
    data_offset = len(out)
    for p, first in enumerate(range(0, len(values), page_rows)):
        rows = values[first : first + page_rows]
        nonnull = [v for v in rows if v is not None]
        levels = hybrid([0 if v is None else 1 for v in rows], 1) if col.optional else b""
        if use_dict and not (enc == "fallback" and p > 0):
            width = bit_width(len(dictionary) - 1)
            venc = PLAIN_DICTIONARY if enc == "plaindict" else RLE_DICTIONARY
            vbytes = bytes([width]) + hybrid([index[v] for v in nonnull], width)
        else:
            venc = PLAIN
            vbytes = plain(col.ptype, nonnull)
        if hostile == "delta":
            venc = 5  # says DELTA_BINARY_PACKED over PLAIN bytes: a refusal, not a misreading
        encodings.add(venc)
        stats = stats_for(col.ptype, rows)
        if not v2:
            body = (struct.pack("<I", len(levels)) + levels if col.optional else b"") + vbytes
            comp = compress(codec, body, opts.get("copy4", False))
            if hostile == "snappy-copy":
                # a copy of 4 bytes from 1000 bytes back, before anything was written
                comp = varint(len(body)) + bytes([(3 << 2) | 2, 0xE8, 0x03]) + comp[len(varint(len(body))):]
            header = Struct(
                (1, T_I32, 0),
                (2, T_I32, 200 << 20 if hostile == "page-size" else len(body)),
                (3, T_I32, len(comp)),
                (5, T_STRUCT, Struct((1, T_I32, len(rows)), (2, T_I32, venc), (3, T_I32, RLE), (4, T_I32, RLE), (5, T_STRUCT, stats))),
            ).encode()
            encodings.add(RLE)
        else:
            cvals = compress(codec, vbytes, opts.get("copy4", False))
            body_len = len(levels) + len(vbytes)
            comp = levels + cvals
            header = Struct(
                (1, T_I32, 3),
                (2, T_I32, body_len),
                (3, T_I32, len(comp)),
                (8, T_STRUCT, Struct(
                    (1, T_I32, len(rows)),
                    (2, T_I32, len(rows) - len(nonnull)),
                    (3, T_I32, len(rows)),
                    (4, T_I32, venc),
                    (5, T_I32, len(levels)),
                    (6, T_I32, 0),
                    (7, "bool", codec != "none"),
                    (8, T_STRUCT, stats),
                )),
            ).encode()
            body = levels + vbytes
        out += header + comp
        uncompressed_total += len(header) + len(body)
    total = len(out) - start
    meta = Struct(
        (1, T_I32, col.ptype),
        (2, T_LIST, List(T_I32, sorted(encodings))),
        (3, T_LIST, List(T_BINARY, [col.name])),
        (4, T_I32, 2 if hostile == "gzip" else CODECS[codec]),
        (5, T_I64, len(values)),
        (6, T_I64, uncompressed_total),
        (7, T_I64, total),
        (9, T_I64, data_offset),
        (11, T_I64, dict_offset),
        (12, T_STRUCT, stats_for(col.ptype, values)),
        # encoding_stats and size_statistics, as recent pyarrow writes them: skipped by readers
        (13, T_LIST, List(T_STRUCT, [Struct((1, T_I32, 0), (2, T_I32, sorted(encodings)[-1]), (3, T_I32, 1))])),
        (16, T_STRUCT, Struct((3, T_LIST, List(T_I64, [len(values) - len(present), len(present)])))),
    )
    return Struct((2, T_I64, start), (3, T_STRUCT, meta)), total


def write_parquet(path, columns, rows, opts, metadata=None):
    """@rows: a list of dicts (column name → value or None); @opts: codec, encoding,
    page_version, page_rows, group_rows."""
    out = bytearray(b"PAR1")
    group_rows = opts.get("group_rows", 1 << 30)
    groups = []
    for g0 in range(0, len(rows), group_rows):
        grows = rows[g0 : g0 + group_rows]
        chunks, size = [], 0
        for col in columns:
            chunk, total = write_chunk(out, col, [r.get(col.name) for r in grows], opts)
            chunks.append(chunk)
            size += total
        claim = opts.get("claim_rows", len(grows))
        groups.append(Struct((1, T_LIST, List(T_STRUCT, chunks)), (2, T_I64, size), (3, T_I64, claim), (6, T_I64, size)))
    nested = opts.get("nested")
    schema = [Struct((4, T_BINARY, "schema"), (5, T_I32, len(columns)))]
    for col in columns:
        if col.name == nested:
            # the column inside a group of its own, as a struct field is stored
            schema.append(Struct((3, T_I32, 1), (4, T_BINARY, nested + "_group"), (5, T_I32, 1)))
        schema.append(
            Struct(
                (1, T_I32, col.ptype),
                (3, T_I32, 2 if col.name == opts.get("repeated") else 1 if col.optional else 0),
                (4, T_BINARY, col.name),
                (6, T_I32, 0 if col.ptype == BYTE_ARRAY else None),
                (10, T_STRUCT, Struct((1, T_STRUCT, Struct())) if col.ptype == BYTE_ARRAY else None),
            )
        )
    kv = [Struct((1, T_BINARY, k), (2, T_BINARY, v)) for k, v in (metadata or {}).items()]
    footer = Struct(
        (1, T_I32, 2),
        (2, T_LIST, List(T_STRUCT, schema)),
        (3, T_I64, opts.get("claim_rows", len(rows))),
        (4, T_LIST, List(T_STRUCT, groups)),
        (5, T_LIST, List(T_STRUCT, kv)) if kv else None,
        (6, T_BINARY, "Inferview build-aux/gen-parquet.py (pyarrow's layout)"),
        (7, T_LIST, List(T_STRUCT, [Struct((1, T_STRUCT, Struct())) for _ in columns])),
    ).encode()
    out += footer + struct.pack("<I", len(footer)) + b"PAR1"
    with open(path, "wb") as f:
        f.write(out)


# ---------------------------------------------------------------- AIPerf's schema

RESERVED = ["endpoint_url", "metric_name", "metric_type", "unit", "description", "timestamp_ns",
            "value", "sum", "count", "bucket_le", "bucket_count"]


def aiperf_columns(label_keys, required=()):
    """ServerMetricsParquetExporter._build_pyarrow_schema: fixed columns, labels sorted,
    value columns; every field nullable (pa.field's default) unless @required names it."""
    cols = [Column("endpoint_url", BYTE_ARRAY), Column("metric_name", BYTE_ARRAY), Column("metric_type", BYTE_ARRAY),
            Column("unit", BYTE_ARRAY), Column("description", BYTE_ARRAY), Column("timestamp_ns", INT64)]
    cols += [Column(k, BYTE_ARRAY) for k in sorted(label_keys)]
    cols += [Column("value", DOUBLE), Column("sum", DOUBLE), Column("count", DOUBLE), Column("bucket_le", BYTE_ARRAY),
             Column("bucket_count", DOUBLE)]
    for c in cols:
        c.optional = c.name not in required
    return cols


# The test table: 12 rows, every kind of row AIPerf writes (a gauge, a counter with a null
# label, a histogram's buckets), each optional column null somewhere. tests/test-parquet.c
# and tests/test-runs.c spell these values out again.
T0 = 1765793061967310848
EP_A = "http://localhost:8000/metrics"
EP_B = "http://localhost:8001/metrics"
QWEN = "Qwen/Qwen3-0.6B"
KV_HELP = "KV-cache usage. 1 means 100 percent usage."
GEN_HELP = "Number of generation tokens processed."
QUEUE_HELP = "Histogram of time spent in WAITING phase for request."


def test_rows():
    rows = []
    for i, v in enumerate([0.25, 0.5, 0.75]):
        rows.append(dict(endpoint_url=EP_A, metric_name="vllm:kv_cache_usage_perc", metric_type="gauge", unit="ratio",
                         description=KV_HELP, timestamp_ns=T0 + i * 10**9, engine="0", model_name=QWEN, value=v))
    for i, v in enumerate([0.0, 120.0, 300.0]):
        rows.append(dict(endpoint_url=EP_A, metric_name="vllm:generation_tokens", metric_type="counter", unit="tokens",
                         description=GEN_HELP, timestamp_ns=T0 + i * 10**9, model_name=QWEN, value=v))
    for i, (s, c, buckets) in enumerate([(0.0, 0.0, [0.0, 0.0, 0.0]), (0.35, 3.0, [1.0, 3.0, 3.0])]):
        for le, b in zip(["0.1", "1.0", "+Inf"], buckets):
            rows.append(dict(endpoint_url=EP_B, metric_name="vllm:request_queue_time_seconds", metric_type="histogram",
                             unit="seconds", description=QUEUE_HELP, timestamp_ns=T0 + i * 10**9, engine="0",
                             model_name=QWEN, sum=s, count=c, bucket_le=le, bucket_count=b))
    return rows


def aiperf_metadata(label_keys, endpoints, extra=None):
    md = {
        "aiperf.schema_version": "1.0",
        "aiperf.exporter": "ServerMetricsParquetExporter",
        "aiperf.endpoint_urls": json.dumps(sorted(endpoints)),
        "aiperf.endpoint_count": str(len(endpoints)),
        "aiperf.label_columns": json.dumps(sorted(label_keys)),
        "aiperf.label_count": str(len(label_keys)),
    }
    md.update(extra or {})
    return md


def gen_tests(folder):
    os.makedirs(folder, exist_ok=True)
    rows = test_rows()
    labels = ["engine", "model_name"]
    md = aiperf_metadata(labels, [EP_A, EP_B], {"aiperf.time_filter_start_ns": str(T0)})
    cols = aiperf_columns(labels)
    written = []

    def w(name, columns=cols, rows_=rows, meta=md, **opts):
        write_parquet(os.path.join(folder, name), columns, rows_, opts, meta)
        written.append(name)

    # every encoding × codec × page version AIPerf's pyarrow can write: dictionary pages
    # with RLE_DICTIONARY indices (format 2.x, the default), PLAIN_DICTIONARY (format 1.0),
    # PLAIN (no dictionary); pages of 5 rows, so a chunk has several
    for enc in ("dict", "plaindict", "plain"):
        for codec in ("none", "snappy", "zstd"):
            for v in (1, 2):
                w(f"{enc}-{codec}-v{v}.parquet", encoding=enc, codec=codec, page_version=v, page_rows=5)
    # a dictionary that stops after the first page (pyarrow's fallback past its
    # dictionary size), row groups of 7 and 5 rows, Snappy copies with 4-byte offsets
    w("fallback-groups-snappy-v1.parquet", encoding="fallback", codec="snappy", page_version=1, page_rows=3,
      group_rows=7, copy4=True)
    # required columns (no definition levels) where the table has no nulls
    req = aiperf_columns(labels, required=("endpoint_url", "metric_name", "metric_type", "unit", "description",
                                           "timestamp_ns", "model_name"))
    w("required-snappy-v1.parquet", columns=req, encoding="dict", codec="snappy", page_version=1)
    w("required-zstd-v2.parquet", columns=req, encoding="plain", codec="zstd", page_version=2)
    # one long page: runs of more than 8 equal values (RLE runs in the levels and indices)
    long_rows = []
    for i in range(40):
        long_rows.append(dict(endpoint_url=EP_A, metric_name="vllm:num_requests_running", metric_type="gauge",
                              unit="requests", description="Number of requests in model execution batches.",
                              timestamp_ns=T0 + i * 333_000_000, model_name=QWEN, value=float(min(i, 20) // 4)))
    w("runs-snappy-v1.parquet", rows_=long_rows, encoding="dict", codec="snappy", page_version=1,
      meta=aiperf_metadata(labels, [EP_A]))
    # what the reader refuses (tests/test-parquet.c checks the column and the problem it
    # names): a codec, an encoding and layouts it does not read, and damage
    base = dict(encoding="dict", codec="snappy", page_version=1)
    w("refuse-gzip.parquet", **dict(base, codec="none", hostile={"metric_type": "gzip"}))
    w("refuse-delta.parquet", **dict(base, encoding="plain", hostile={"timestamp_ns": "delta"}))
    w("refuse-nested.parquet", **dict(base, nested="bucket_count"))
    w("refuse-repeated.parquet", **dict(base, repeated="value"))
    w("hostile-rows.parquet", **dict(base, claim_rows=1 << 40))
    w("hostile-dict-index.parquet", **dict(base, hostile={"metric_name": "dict-short"}))
    w("hostile-snappy.parquet", **dict(base, hostile={"unit": "snappy-copy"}))
    w("hostile-page-size.parquet", **dict(base, hostile={"description": "page-size"}))
    return written


# ---------------------------------------------------------------- a run's server metrics

def infer_unit(name):
    """A short form of AIPerf's server_metrics/units.py infer_unit: from the name's suffix."""
    for suffix, unit in (("_seconds", "seconds"), ("_tokens", "tokens"), ("_perc", "ratio"), ("_bytes", "bytes")):
        if name.endswith(suffix) or name.endswith(suffix + "_total"):
            return unit
    if "requests" in name or "reqs" in name:
        return "requests"
    return None


def gen_run(run):
    """ServerMetricsParquetExporter over the run's JSONL, with no time filter (the
    reference is each series' first scrape): gauges raw, counters and histograms as
    increases since that scrape, clamped at 0 across a reset."""
    src = os.path.join(run, "server_metrics_export.jsonl")
    types, helps = {}, {}
    meta_path = os.path.join(run, "server_metrics_metadata.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            for ep in json.load(f).get("endpoints", {}).values():
                for name, s in ep.get("metric_schemas", {}).items():
                    types[name] = s.get("type", "unknown")
                    helps[name] = s.get("help")
    series = {}  # (endpoint, name, labels tuple) → list of (ts, sample)
    order = []
    with open(src) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            scrape = json.loads(line)
            for name, samples in scrape["metrics"].items():
                for s in samples:
                    key = (scrape["endpoint_url"], name, tuple(sorted((s.get("labels") or {}).items())))
                    if key not in series:
                        series[key] = []
                        order.append(key)
                    series[key].append((scrape["timestamp_ns"], s))
    label_keys = sorted({k for key in order for k, _ in key[2]} - set(RESERVED))
    rows = []
    for key in order:
        ep, name, labels = key
        points = series[key]
        mtype = types.get(name) or ("histogram" if "buckets" in points[0][1] else "gauge")
        base = dict(endpoint_url=ep, metric_name=name, metric_type=mtype, unit=infer_unit(name),
                    description=helps.get(name), **{k: v for k, v in labels if k in label_keys})
        if mtype == "histogram":
            ref = points[0][1]
            for ts, s in points:
                for le, c in s["buckets"].items():
                    rows.append(dict(base, timestamp_ns=ts, sum=max(s["sum"] - ref["sum"], 0.0),
                                     count=float(max(s["count"] - ref["count"], 0)), bucket_le=le,
                                     bucket_count=float(max(c - ref["buckets"].get(le, 0), 0))))
        else:
            ref = points[0][1]["value"]
            for ts, s in points:
                v = float(s["value"]) if mtype in ("gauge", "unknown") else float(max(s["value"] - ref, 0))
                rows.append(dict(base, timestamp_ns=ts, value=v))
    endpoints = sorted({key[0] for key in order})
    md = aiperf_metadata(label_keys, endpoints, {
        "aiperf.metric_count": str(len({(k[0], k[1]) for k in order})),
        "aiperf.note": "synthetic: written by Inferview's build-aux/gen-parquet.py from server_metrics_export.jsonl",
    })
    # what pyarrow does for AIPerf: batches of 10,000 rows (a row group each), dictionary
    # pages, Snappy, data pages v1
    write_parquet(os.path.join(run, "server_metrics_export.parquet"), aiperf_columns(label_keys), rows,
                  dict(encoding="dict", codec="snappy", page_version=1, group_rows=10_000, page_rows=20_000), md)
    return len(rows)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("tests", "run"):
        sys.exit(__doc__)
    if sys.argv[1] == "tests":
        for name in gen_tests(sys.argv[2]):
            print(name)
    else:
        print(gen_run(sys.argv[2]), "rows")


if __name__ == "__main__":
    main()
