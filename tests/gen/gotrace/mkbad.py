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
    # an event 2^63 ticks after its batch began
    'bad-gotrace-bigtime.trace': HDR + ev('Batch', 0, 1000) +
        ev('ProcStart', 1 << 63, 1),
    # goroutine 1 runs for 11,000 s (1 MHz ticks): more than the derived
    # tables' 2^20 bins of 10 ms (their accumulator runs in the writer
    # thread, so this is that thread's error)
    'bad-gotrace-longspan.trace': trace(GOOD[:4] +
        [ev('GoEnd', 11000 * 1000000), ev('ProcStop', 1)]),
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

# --- the generation format (Go 1.22+) --------------------------------------

V2 = dict(EventBatch=1, Stacks=2, Stack=3, Strings=4, String=5,
          CPUSamples=6, CPUSample=7, Frequency=8, ProcsChange=9, ProcStart=10,
          ProcStop=11, ProcSteal=12, ProcStatus=13, GoCreate=14, GoStart=16,
          GoDestroy=17, GoStop=19, GoBlock=20, GoUnblock=21,
          GoSyscallBegin=22, GoSyscallEnd=23, GoSyscallEndBlocked=24,
          GoStatus=25, STWBegin=26, STWEnd=27, GCBegin=29, GCEnd=30,
          GCSweepBegin=32, GCSweepEnd=33, GCMarkAssistBegin=35,
          GCMarkAssistEnd=36, HeapAlloc=37, HeapGoal=38, GoLabel=39,
          UserTaskBegin=40, UserTaskEnd=41, UserRegionBegin=42,
          UserRegionEnd=43, UserLog=44, GoSwitch=45, GoSwitchDestroy=46,
          GoCreateBlocked=47, Sync=50, ClockSnapshot=51)
NO = (1 << 64) - 1

def ev2(name, *args):
    return bytes([V2[name]]) + b''.join(uv(a) for a in args)

def batch2(gen, m, time, data, size=None):
    return bytes([V2['EventBatch']]) + uv(gen) + uv(m) + uv(time) + \
        uv(len(data) if size is None else size) + data

def str2(i, s):
    s = s.encode()
    return ev2('String', i) + uv(len(s)) + s

FREQ2 = batch2(1, NO, 0, ev2('Frequency', 15625000))
STACKS2 = batch2(1, NO, 0, ev2('Stacks') +
    ev2('Stack', 1, 1, 0x401000, 2, 3, 7) +
    ev2('Stack', 2, 1, 0x401100, 4, 3, 12))
STRINGS2 = batch2(1, NO, 0, ev2('Strings') + str2(1, 'chan receive') +
    str2(2, 'main.worker') + str2(3, 'main.go') + str2(4, 'main.main'))
# P 0 and goroutine 1 running on thread 1; goroutine 1 creates goroutine 2
# and blocks on a channel; goroutine 2 runs and ends; P 0 stops.
GOOD2 = [ev2('ProcStatus', 1, 0, 1), ev2('GoStatus', 1, 1, 1, 2),
         ev2('GoCreate', 1, 2, 1, 2), ev2('GoBlock', 1, 1, 2),
         ev2('GoStart', 1, 2, 1), ev2('GoDestroy', 1), ev2('ProcStop', 1)]
HDR2 = b'go 1.22 trace\x00\x00\x00'

def trace2(events, freq=FREQ2, stacks=STACKS2, strings=STRINGS2, tail=b''):
    return HDR2 + freq + batch2(1, 1, 100, b''.join(events)) + stacks + \
        strings + tail

# A Go 1.25 generation with most of what the format can say, on two
# threads: every kind of goroutine transition (coroutine switches,
# syscalls with the P stolen), GC, sweep, assist, STW, a label, a task
# with a region and a log, heap counters, a CPU sample and the clock
# snapshot.  Times in ticks of 64 ns from batch time 100.
def rich125():
    hdr = b'go 1.25 trace\x00\x00\x00'
    sync = batch2(1, NO, 100, ev2('Sync') + ev2('Frequency', 15625000) +
        ev2('ClockSnapshot', 0, 123456789, 1700000000, 5))
    m1 = b''.join([
        ev2('ProcStatus', 1, 0, 1),            # 101 P0 running on M1
        ev2('GoStatus', 1, 1, 1, 2),           # 102 G1 running
        ev2('GoLabel', 1, 5),                  # 103
        ev2('ProcsChange', 1, 4, 0),           # 104
        ev2('STWBegin', 1, 6, 0),              # 105
        ev2('STWEnd', 1),                      # 106
        ev2('GCBegin', 1, 1, 2),               # 107
        ev2('GoCreate', 1, 2, 1, 2),           # 108 G2 runnable
        ev2('GoCreateBlocked', 1, 3, 1, 2),    # 109 G3 waiting
        ev2('GCMarkAssistBegin', 1, 2),        # 110
        ev2('GCMarkAssistEnd', 1),             # 111
        ev2('GCSweepBegin', 1, 0),             # 112
        ev2('GCSweepEnd', 1, 4096, 1024),      # 113
        ev2('GoSyscallBegin', 1, 1, 2),        # 114 P0 in syscall
        ev2('GoSyscallEndBlocked', 10),        # 124 after the steal
        ev2('ProcStart', 1, 1, 1),             # 125 P1
        ev2('GoStart', 1, 1, 1),               # 126 G1 running again
        ev2('GoSwitch', 1, 3, 1),              # 127 G1 -> G3
        ev2('GoSwitchDestroy', 1, 1, 2),       # 128 G3 ends, G1 runs
        ev2('GCEnd', 1, 2),                    # 129
        ev2('UserTaskBegin', 1, 7, 0, 7, 2),   # 130
        ev2('UserRegionBegin', 1, 7, 8, 2),    # 131
        ev2('UserLog', 1, 7, 9, 10, 2),        # 132
        ev2('UserRegionEnd', 1, 7, 8, 2),      # 133
        ev2('UserTaskEnd', 1, 7, 2),           # 134
        ev2('HeapAlloc', 1, 1000),             # 135
        ev2('HeapGoal', 1, 2000),              # 136
        ev2('GoBlock', 1, 11, 2),              # 137 G1 blocked, chan recv
        ev2('ProcStop', 1),                    # 138
    ])
    m2 = b''.join([
        ev2('ProcStatus', 1, 1, 2),            # 101 P1 idle
        ev2('ProcSteal', 20, 0, 2, 1),         # 121 steals P0 from M1
        ev2('ProcStart', 1, 0, 3),             # 122 P0 on M2
        ev2('GoStart', 1, 2, 1),               # 123 G2 runs
        ev2('GoStop', 2, 12, 2),               # 125 preempted
        ev2('GoStart', 20, 2, 2),              # 145 G2 runs again
        ev2('GoUnblock', 1, 1, 3, 1),          # 146 and wakes G1
        ev2('GoDestroy', 1),                   # 147
        ev2('ProcStop', 1),                    # 148
    ])
    cpu = batch2(1, NO, 100, ev2('CPUSamples') +
        ev2('CPUSample', 115, 1, 0, 1, 2))
    stacks = batch2(1, NO, 100, ev2('Stacks') +
        ev2('Stack', 1, 1, 0x401000, 2, 3, 7) +
        ev2('Stack', 2, 2, 0x401100, 4, 3, 12, 0x401200, 13, 3, 20))
    strs = batch2(1, NO, 100, ev2('Strings') + b''.join(
        str2(i + 1, t) for i, t in enumerate([
            'chan receive', 'main.worker', 'main.go', 'main.main',
            'GC (idle)', 'GOMAXPROCS', 'job', 'step', 'key', 'value',
            'chan receive', 'preempted', 'main.outer'])))
    return hdr + sync + batch2(1, 1, 100, m1) + batch2(1, 2, 100, m2) + \
        cpu + stacks + strs

files.update({
    'rich125.trace': rich125(),
    'min122.trace': trace2(GOOD2),
    # Go 1.24 writes "go 1.23 trace": 1.24 is no format
    'bad-gotrace2-version.trace': b'go 1.24 trace\x00\x00\x00' + FREQ2,
    # a Frequency event where a batch must begin
    'bad-gotrace2-batch.trace': HDR2 + ev2('Frequency', 15625000),
    # a batch of 70000 bytes
    'bad-gotrace2-size.trace': HDR2 + batch2(1, 1, 0, b'', size=70000),
    # a batch cut short by the end of the file
    'bad-gotrace2-truncated.trace': HDR2 + FREQ2 +
        batch2(1, 1, 0, ev2('ProcStatus', 1, 0, 1), size=20),
    # event type 60 in a Go 1.22 batch
    'bad-gotrace2-type.trace': trace2([bytes([60, 1])]),
    # an event cut short by the end of its batch
    'bad-gotrace2-event.trace': trace2([ev2('ProcStatus', 1, 0, 1),
        bytes([V2['GoStatus'], 1, 1])]),
    # no frequency in the generation
    'bad-gotrace2-nofreq.trace': trace2(GOOD2, freq=b''),
    # GoBlock at stack 9, never defined
    'bad-gotrace2-stack.trace': trace2(GOOD2[:3] + [ev2('GoBlock', 1, 1, 9)]
        + GOOD2[4:]),
    # GoBlock for reason string 9, never defined
    'bad-gotrace2-string.trace': trace2(GOOD2[:3] + [ev2('GoBlock', 1, 9, 2)]
        + GOOD2[4:]),
    # string 1 defined twice
    'bad-gotrace2-dupstring.trace': trace2(GOOD2, strings=STRINGS2 +
        batch2(1, NO, 0, ev2('Strings') + str2(1, 'again'))),
    # a stack frame naming function string 9, never defined
    'bad-gotrace2-frame.trace': trace2(GOOD2, stacks=batch2(1, NO, 0,
        ev2('Stacks') + ev2('Stack', 1, 1, 0x401000, 9, 3, 7) +
        ev2('Stack', 2, 1, 0x401100, 4, 3, 12))),
    # a batch of generation 0
    'bad-gotrace2-gen0.trace': HDR2 + batch2(0, NO, 0,
        ev2('Frequency', 15625000)),
    # generation 3 right after generation 1
    'bad-gotrace2-genorder.trace': trace2(GOOD2) + batch2(1, NO, 0,
        ev2('Strings')) + batch2(3, NO, 0, ev2('Frequency', 15625000)),
    # GoDestroy on a thread running no goroutine
    'bad-gotrace2-transition.trace': trace2([ev2('ProcStatus', 1, 0, 1),
        ev2('GoDestroy', 1)]),
    # GoStart of goroutine 2 with sequence 5: nothing can come next
    'bad-gotrace2-sequence.trace': trace2(GOOD2[:4] +
        [ev2('GoStart', 1, 2, 5)]),
    # a P status of 9
    'bad-gotrace2-status.trace': trace2([ev2('ProcStatus', 1, 0, 9)]),
    # an event 2^63 ticks after its batch began
    'bad-gotrace2-bigtime.trace': trace2([ev2('ProcStatus', 1 << 63, 0, 1)]),
})

out = sys.argv[1]
for name, data in sorted(files.items()):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
