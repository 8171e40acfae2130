#!/usr/bin/env python3
"""strip-path.py FILE.pb.gz...: in each gzip'd pprof profile, replace
every string of the string table that is an absolute path (the mapping's
file: the binary as the generator ran it, in a temporary directory) by
its last component, so that the committed profiles name no directory of
the machine that made them.  Only the top-level string_table entries
(field 6) change; every other byte is kept."""
import gzip
import sys


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def enc(v):
    out = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        if v:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)


def strip(b):
    out = bytearray()
    i = 0
    while i < len(b):
        start = i
        key, i = varint(b, i)
        field, wt = key >> 3, key & 7
        if wt == 0:
            _, i = varint(b, i)
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        elif wt == 2:
            n, j = varint(b, i)
            data = b[j:j + n]
            i = j + n
            if field == 6 and data.startswith(b"/"):
                data = data.rsplit(b"/", 1)[1]
                out += enc(key) + enc(len(data)) + data
                continue
        else:
            sys.exit("unexpected wire type %d at offset %d" % (wt, start))
        out += b[start:i]
    return bytes(out)


for path in sys.argv[1:]:
    with gzip.open(path, "rb") as f:
        b = f.read()
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(strip(b))
