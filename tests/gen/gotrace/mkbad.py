#!/usr/bin/env python3
# Write the small hand-made old-format traces of tests/data/gotrace: a
# minimal valid one (min119.trace) and one bad-*.trace per error the
# importer reports.  SYNTHETIC: made by this script from the format as
# Go 1.19's runtime writes it, not recorded from a program.
#   python3 tests/gen/gotrace/mkbad.py tests/data/gotrace
import os, sys

EV = dict(Batch=1, Frequency=2, Stack=3, Gomaxprocs=4, ProcStart=5,
          ProcStop=6, GoCreate=13, GoStart=14, GoEnd=15, GoUnblock=21,
          GoBlockRecv=23, String=37, GoStartLabel=41, UserRegion=47)

def uv(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7f) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)

def ev(name, *args):
    t = EV[name]
    body = b''.join(uv(a) for a in args)
    if len(args) <= 3:
        return bytes([t | (len(args) - 1) << 6]) + body
    return bytes([t | 3 << 6]) + uv(len(body)) + body

def string(i, s):
    s = s.encode()
    return bytes([EV['String']]) + uv(i) + uv(len(s)) + s

HDR = b'go 1.19 trace\x00\x00\x00'

def trace(body_events, tail=None):
    """A trace: header, one batch on P 0 at tick 1000 with the events,
    then the stack table and the frequency (as the runtime ends it)."""
    if tail is None:
        tail = [ev('Stack', 1, 1, 0x401000, 1, 2, 7),
                ev('Stack', 2, 1, 0x401100, 3, 2, 12),
                ev('Frequency', 1000000)]
    return HDR + ev('Batch', 0, 1000) + string(1, 'main.worker') + \
        string(2, 'main.go') + string(3, 'main.main') + \
        b''.join(body_events) + b''.join(tail)

# goroutine 1 created (start stack 1, created at stack 2), started, ended
GOOD = [ev('Gomaxprocs', 1, 1, 2), ev('GoCreate', 1, 1, 1, 2),
        ev('ProcStart', 1, 7), ev('GoStart', 1, 1, 1),
        ev('GoEnd', 1), ev('ProcStop', 1)]

files = {
    'min119.trace': trace(GOOD),
    # header says go 1.5: no symbols in the trace
    'bad-gotrace-version.trace': b'go 1.5 trace\x00\x00\x00\x00' +
        ev('Batch', 0, 1000),
    # event type 63 exists in no version
    'bad-gotrace-type.trace': HDR + ev('Batch', 0, 1000) + bytes([63]),
    # the file ends inside a varint
    'bad-gotrace-varint.trace': HDR + ev('Batch', 0, 1000) +
        bytes([EV['ProcStart'] | 1 << 6, 0x81, 0x82]),
    # a varint of 11 bytes
    'bad-gotrace-longvarint.trace': HDR + ev('Batch', 0, 1000) +
        bytes([EV['ProcStop']]) + b'\xff' * 10 + b'\x01',
    # a string cut short
    'bad-gotrace-truncated.trace': HDR + ev('Batch', 0, 1000) +
        bytes([EV['String']]) + uv(1) + uv(20) + b'main.',
    # a string defined twice
    'bad-gotrace-dupstring.trace': trace([string(1, 'again')] + GOOD),
    # ProcStop with two arguments
    'bad-gotrace-nargs.trace': trace([ev('ProcStop', 1, 2)]),
    # a stack frame naming string 9, never defined
    'bad-gotrace-string.trace': trace(GOOD, [
        ev('Stack', 1, 1, 0x401000, 9, 2, 7),
        ev('Frequency', 1000000)]),
    # GoCreate at stack 5, never defined
    'bad-gotrace-stack.trace': trace([ev('GoCreate', 1, 1, 1, 5)] +
        GOOD[2:]),
    # no frequency at the end: a trace cut before its footer
    'bad-gotrace-nofreq.trace': trace(GOOD, [
        ev('Stack', 1, 1, 0x401000, 1, 2, 7)]),
    # P 0 stops while goroutine 1 runs on it
    'bad-gotrace-transition.trace': trace([ev('GoCreate', 1, 1, 1, 2),
        ev('ProcStart', 1, 7), ev('GoStart', 1, 1, 1), ev('ProcStop', 1)]),
    # GoEnd when no goroutine runs: it falls on goroutine 0
    'bad-gotrace-g0.trace': trace([ev('GoCreate', 1, 1, 1, 2),
        ev('ProcStart', 1, 7), ev('GoEnd', 1)]),
    # GoStart with sequence 3 where 0 comes next
    'bad-gotrace-sequence.trace': trace([ev('GoCreate', 1, 1, 1, 2),
        ev('ProcStart', 1, 7), ev('GoStart', 1, 1, 3)]),
    # a batch for P 4294967296
    'bad-gotrace-proc.trace': HDR + ev('Batch', 1 << 32, 1000),
    # a region end that does not match the open region
    'bad-gotrace-region.trace': trace(GOOD[:4] + [
        ev('UserRegion', 1, 0, 0, 1, 2), ev('UserRegion', 1, 0, 1, 3, 2)]),
    # goroutine 1 starts on P 1 at tick 502, created on P 0 at tick 1002
    'bad-gotrace-time.trace': HDR + ev('Batch', 0, 1000) +
        string(1, 'main.worker') + string(2, 'main.go') +
        ev('Gomaxprocs', 1, 2, 0) + ev('GoCreate', 1, 1, 1, 0) +
        ev('ProcStart', 1, 7) + ev('Batch', 1, 500) + ev('ProcStart', 1, 8) +
        ev('GoStart', 1, 1, 1) + ev('Stack', 1, 1, 0x401000, 1, 2, 7) +
        ev('Frequency', 1000000),
}

out = sys.argv[1]
for name, data in sorted(files.items()):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
