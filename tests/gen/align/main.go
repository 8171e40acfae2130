// The program behind tests/data/align/real: a Go process whose CPU
// activity is irregular (bursts and pauses of pseudo-random lengths, on
// one to three goroutines), so that its runtime trace and perf's samples
// of it can be matched in time, and which records the ground truth of the
// match: pairs of CLOCK_REALTIME and CLOCK_MONOTONIC read together, both as
// runtime/trace user logs (category "tracekit.clock", message
// "mono=N wall=N": the log's own trace time stamp is taken right after
// the clocks were read) and in a clock.json file with the bracket of
// every read.
//
// Usage: aligngen OUTDIR SECONDS
package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

var sink float64

// spin burns CPU for about d.
func spin(d time.Duration) {
	end := monoNow() + int64(d)
	s := 0.0
	for i := 0; monoNow() < end; i++ {
		for j := 0; j < 200; j++ {
			s += math.Sqrt(float64(i*200 + j))
		}
	}
	sink += s
}

// rng is a small deterministic generator (xorshift), the same on every run.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*r = rng(x)
	return x
}

func (r *rng) ms(lo, hi int) time.Duration {
	return time.Duration(lo+int(r.next()%uint64(hi-lo+1))) * time.Millisecond
}

type clockFile struct {
	f     *os.File
	first bool
}

// pair reads the clocks, logs the pair in the trace and writes it to the
// file with the monotonic bracket of the wall-clock read.
func (c *clockFile) pair(ctx context.Context) {
	mb := monoNow()
	w := wallNow()
	ma := monoNow()
	trace.Log(ctx, "tracekit.clock", fmt.Sprintf("mono=%d wall=%d", ma, w))
	sep := ",\n"
	if c.first {
		sep = "\n"
		c.first = false
	}
	fmt.Fprintf(c.f, "%s    {\"wall_ns\": %d, \"mono_before_ns\": %d, \"mono_after_ns\": %d}", sep, w, mb, ma)
}

func main() {
	out, secs := os.Args[1], 2.5
	if len(os.Args) > 2 {
		secs, _ = strconv.ParseFloat(os.Args[2], 64)
	}
	host, _ := os.Hostname()
	cf, _ := os.Create(filepath.Join(out, "clock.json"))
	fmt.Fprintf(cf, "{\n  \"tracekit_clock\": 1,\n  \"host\": %q,\n  \"pairs\": [", host)
	clock := &clockFile{f: cf, first: true}

	tf, _ := os.Create(filepath.Join(out, "trace.out"))
	// CPU profiling on puts CPU samples in the trace; the profile itself
	// would name this machine's paths, so it is not kept.
	pprof.StartCPUProfile(io.Discard)
	trace.Start(tf)
	ctx := context.Background()
	clock.pair(ctx)

	r := rng(0x9e3779b97f4a7c15)
	deadline := monoNow() + int64(secs*1e9)
	next := monoNow() + int64(250*time.Millisecond)
	work := make(chan time.Duration)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range work {
				spin(d)
			}
		}()
	}
	for monoNow() < deadline {
		// A burst on one to three goroutines, then a pause.
		n := int(r.next() % 3)
		for i := 0; i < n; i++ {
			work <- r.ms(2, 25)
		}
		spin(r.ms(1, 30))
		time.Sleep(r.ms(1, 40))
		if monoNow() >= next {
			clock.pair(ctx)
			next += int64(250 * time.Millisecond)
		}
	}
	close(work)
	wg.Wait()
	clock.pair(ctx)
	trace.Stop()
	pprof.StopCPUProfile()
	tf.Close()
	fmt.Fprintf(cf, "\n  ]\n}\n")
	cf.Close()
}
