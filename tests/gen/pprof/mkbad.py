#!/usr/bin/env python3
"""Write the small hand-made pprof inputs of tests/data/pprof/:
  python3 tests/gen/pprof/mkbad.py   (from the top of the source tree)

tiny.pb is a complete, valid profile.proto built field by field (inlined
frames, a location without lines, labels with a unit, a mapping, comments,
drop/keep frames); each bad-pprof-*.pb breaks exactly one rule of it.  The
encoder below is the protobuf wire format, nothing more.  tiny.pb.zst is
tiny.pb compressed with the zstd command.
"""
import gzip
import os
import subprocess


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wt):
    return varint(field << 3 | wt)


def vint(field, v):
    return key(field, 0) + varint(v) if v else b""


def ld(field, data):
    return key(field, 2) + varint(len(data)) + data


def packed(field, vals):
    return ld(field, b"".join(varint(v) for v in vals)) if vals else b""


def value_type(t, u):
    return vint(1, t) + vint(2, u)


def label(k, s=0, num=0, unit=0):
    return vint(1, k) + vint(2, s) + vint(3, num) + vint(4, unit)


def sample(locs, vals, labels=()):
    return packed(1, locs) + packed(2, vals) + b"".join(ld(3, l) for l in labels)


def mapping(mid, start, limit, off, fname, build=0, funcs=1):
    return (vint(1, mid) + vint(2, start) + vint(3, limit) + vint(4, off) +
            vint(5, fname) + vint(6, build) + vint(7, funcs) + vint(8, funcs) +
            vint(9, funcs) + vint(10, funcs))


def line(fid, ln):
    return vint(1, fid) + vint(2, ln)


def location(lid, mid, addr, lines):
    return vint(1, lid) + vint(2, mid) + vint(3, addr) + b"".join(ld(4, l) for l in lines)


def function(fid, name, sysname, fname, start=0):
    return vint(1, fid) + vint(2, name) + vint(3, sysname) + vint(4, fname) + vint(5, start)


STRINGS = ["", "samples", "count", "cpu", "nanoseconds", "main.main",
           "main.go", "runtime.main", "proc.go", "worker", "a", "bin",
           "main.inl", "bytes", "size", "runtime\\..*", "runtime\\.main",
           "made by mkbad.py", "b", "deadbeef", "main\\.inl"]
S = {s: i for i, s in enumerate(STRINGS)}


def profile(samples=None, locations=None, functions=None, mappings=None,
            strings=None, sample_types=None, time=1700000000123456789,
            drop="runtime\\..*", keep="runtime\\.main", extra=b""):
    if sample_types is None:
        sample_types = [(S["samples"], S["count"]), (S["cpu"], S["nanoseconds"])]
    if samples is None:
        samples = [
            sample([1, 2], [3, 30000000], [label(S["worker"], S["a"]),
                                          label(S["size"], num=64, unit=S["bytes"])]),
            sample([3, 2], [1, 10000000], [label(S["worker"], S["b"])]),
            sample([2], [2, 20000000]),
        ]
    if locations is None:
        locations = [
            # main.inl inlined into main.main: innermost line first.
            location(1, 1, 0x401010, [line(3, 12), line(1, 7)]),
            location(2, 1, 0x402020, [line(2, 250)]),
            location(3, 1, 0x403030, []),
        ]
    if functions is None:
        functions = [
            function(1, S["main.main"], S["main.main"], S["main.go"], 5),
            function(2, S["runtime.main"], S["runtime.main"], S["proc.go"]),
            function(3, S["main.inl"], S["main.inl"], S["main.go"], 11),
        ]
    if mappings is None:
        mappings = [mapping(1, 0x400000, 0x500000, 0, S["bin"], S["deadbeef"])]
    if strings is None:
        strings = STRINGS
    out = b"".join(ld(1, value_type(*t)) for t in sample_types)
    out += b"".join(ld(2, s) for s in samples)
    out += b"".join(ld(3, m) for m in mappings)
    out += b"".join(ld(4, l) for l in locations)
    out += b"".join(ld(5, f) for f in functions)
    out += b"".join(ld(6, s.encode()) for s in strings)
    out += vint(7, S.get(drop, 0)) + vint(8, S.get(keep, 0))
    out += vint(9, time) + vint(10, 2000000000)
    out += ld(11, value_type(S["cpu"], S["nanoseconds"])) + vint(12, 10000000)
    out += packed(13, [S["made by mkbad.py"]])
    out += extra
    return out


def main():
    top = os.getcwd()
    d = os.path.join(top, "tests", "data", "pprof")
    if not os.path.isdir(d):
        raise SystemExit("mkbad.py: run from the top of the source tree")

    def w(name, data):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)

    tiny = profile()
    w("tiny.pb", tiny)
    subprocess.run(["zstd", "-q", "-f", "-19", os.path.join(d, "tiny.pb"),
                    "-o", os.path.join(d, "tiny.pb.zst")], check=True)
    # drop_frames cuts main.inl out of location 1, main.main stays.
    w("prune.pb", profile(drop="main\\.inl", keep=""))
    # No sample types: each sample has one value, of the period type.
    w("legacy.pb", profile(sample_types=[], samples=[
        sample([1, 2], [30000000]), sample([2], [20000000])]))
    # No samples, no mappings, no time, no period.
    w("empty-profile.pb", ld(1, value_type(S["samples"], S["count"])) +
      ld(6, b"") + ld(6, b"samples") + ld(6, b"count"))

    w("bad-pprof-location.pb", profile(samples=[
        sample([1, 2], [3, 30000000]), sample([9, 2], [1, 10000000])]))
    w("bad-pprof-string.pb", profile(functions=[
        function(1, S["main.main"], S["main.main"], S["main.go"]),
        function(2, 99, S["runtime.main"], S["proc.go"]),
        function(3, S["main.inl"], S["main.inl"], S["main.go"])]))
    w("bad-pprof-values.pb", profile(samples=[
        sample([1, 2], [3, 30000000]), sample([2], [2])]))
    w("bad-pprof-function.pb", profile(locations=[
        location(1, 1, 0x401010, [line(3, 12), line(1, 7)]),
        location(2, 1, 0x402020, [line(7, 250)]),
        location(3, 1, 0x403030, [])]))
    w("bad-pprof-mapping.pb", profile(locations=[
        location(1, 4, 0x401010, [line(3, 12), line(1, 7)]),
        location(2, 1, 0x402020, [line(2, 250)]),
        location(3, 1, 0x403030, [])]))
    w("bad-pprof-dup-location.pb", profile(locations=[
        location(1, 1, 0x401010, [line(3, 12), line(1, 7)]),
        location(2, 1, 0x402020, [line(2, 250)]),
        location(2, 1, 0x403030, [])]))
    w("bad-pprof-zero-id.pb", profile(functions=[
        function(1, S["main.main"], S["main.main"], S["main.go"]),
        function(0, S["runtime.main"], S["runtime.main"], S["proc.go"]),
        function(3, S["main.inl"], S["main.inl"], S["main.go"])]))
    w("bad-pprof-label.pb", profile(samples=[
        sample([1, 2], [3, 30000000], [label(77, S["a"])])]))
    w("bad-pprof-string0.pb", profile(strings=["x"] + STRINGS[1:]))
    w("bad-pprof-concat.pb", tiny + tiny)
    w("bad-pprof-truncated.pb", tiny[:len(tiny) - 60])
    w("bad-pprof-truncated.pb.gz", gzip.compress(tiny, mtime=0)[:-12])
    # Wire-level damage that the content probe refuses (tests use -f):
    # a sample whose value varint never ends, and a sample field sent as
    # a varint.
    w("bad-pprof-nested.pb", profile(samples=[
        sample([1, 2], [3, 30000000]), b"\x10\xff\xff"]))
    w("bad-pprof-wiretype.pb", profile()[:0] + vint(2, 5) + tiny)


if __name__ == "__main__":
    main()
