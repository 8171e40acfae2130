// The demo "training job" behind tests/data/demo: a data loader feeds
// batches over a channel to a step loop that stands in for GPU work.  Every
// few seconds the loader stalls on a mutex held by a checkpoint writer and
// allocates heavily (GC), so the "GPU" goes idle: the postmortem the README
// walks through.  It writes a Go runtime trace, CPU and heap profiles, a
// clock file of wall/monotonic pairs, and a SYNTHETIC nvidia-smi CSV of the
// utilisation its step loop implies (no GPU is involved).
//
// Usage: demo OUTDIR SECONDS
package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

var (
	ckptMu sync.Mutex
	sink   [][]byte
	busyNs int64 // nanoseconds the fake GPU was busy (atomic)
)

func monoNow() int64 {
	var ts [2]int64
	clockGettime(1, unsafe.Pointer(&ts[0]))
	return ts[0]*1e9 + ts[1]
}

func decode(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += math.Sqrt(float64(i%977)) * math.Sin(float64(i))
	}
	return s
}

func loader(batches chan<- []float64, stop <-chan struct{}) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			close(batches)
			return
		default:
		}
		if i%40 == 39 {
			// The stall: wait for the checkpoint writer, then
			// allocate a burst that triggers GC.
			ckptMu.Lock()
			ckptMu.Unlock()
			for j := 0; j < 64; j++ {
				sink = append(sink, make([]byte, 1<<20))
			}
			if len(sink) > 256 {
				sink = sink[:0]
			}
		}
		b := make([]float64, 512)
		b[0] = decode(120000)
		batches <- b
	}
}

func checkpointer(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(700 * time.Millisecond):
		}
		ckptMu.Lock()
		time.Sleep(150 * time.Millisecond) // "writing the checkpoint"
		ckptMu.Unlock()
	}
}

func step(b []float64) {
	// The GPU kernel: the host waits for it.
	t0 := time.Now()
	time.Sleep(8 * time.Millisecond)
	atomic.AddInt64(&busyNs, int64(time.Since(t0)))
	_ = b
}

func smiWriter(path string, stop <-chan struct{}, done chan<- struct{}) {
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(f, "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], power.draw [W]")
	tick := time.NewTicker(100 * time.Millisecond)
	mem := 20480.0
	for {
		select {
		case <-stop:
			f.Close()
			close(done)
			return
		case now := <-tick.C:
			util := int(atomic.SwapInt64(&busyNs, 0) / 1e6)
			if util > 100 {
				util = 100
			}
			mem += 1.5 // a slow leak
			fmt.Fprintf(f, "%s, 0, SYNTHETIC GPU, %d %%, %d MiB, 81920 MiB, %.2f W\n",
				now.Format("2006/01/02 15:04:05.000"), util, int(mem), 60+3.0*float64(util))
		}
	}
}

func main() {
	out, secs := os.Args[1], 3.0
	if len(os.Args) > 2 {
		secs, _ = strconv.ParseFloat(os.Args[2], 64)
	}
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	clock, _ := os.Create(filepath.Join(out, "clock.json"))
	pair := func(first bool) {
		w := time.Now().UnixNano()
		m := monoNow()
		sep := ","
		if first {
			sep = ""
		}
		fmt.Fprintf(clock, "%s\n  {\"wall_ns\": %d, \"mono_ns\": %d}", sep, w, m)
	}
	fmt.Fprint(clock, "{\"pairs\": [")
	pair(true)
	tf, _ := os.Create(filepath.Join(out, "trace.out"))
	trace.Start(tf)
	cf, _ := os.Create(filepath.Join(out, "cpu.pprof"))
	pprof.StartCPUProfile(cf)

	stop := make(chan struct{})
	smiDone := make(chan struct{})
	go smiWriter(filepath.Join(out, "nvidia-smi.csv"), stop, smiDone)
	batches := make(chan []float64, 2)
	go loader(batches, stop)
	go checkpointer(stop)
	deadline := time.Now().Add(time.Duration(secs * float64(time.Second)))
	nheap := 0
	for b := range batches {
		ctx, task := trace.NewTask(context.Background(), "train-step")
		trace.WithRegion(ctx, "gpu", func() { step(b) })
		task.End()
		if time.Now().After(deadline) {
			close(stop)
			for range batches {
			}
			break
		}
		if nheap < int(secs) && time.Until(deadline) < time.Duration((secs-float64(nheap)-0.5)*float64(time.Second)) {
			hf, _ := os.Create(filepath.Join(out, fmt.Sprintf("heap-%d.pprof", nheap)))
			pprof.WriteHeapProfile(hf)
			hf.Close()
			nheap++
		}
	}
	<-smiDone
	pprof.StopCPUProfile()
	cf.Close()
	trace.Stop()
	tf.Close()
	pair(false)
	fmt.Fprintln(clock, "\n]}")
	clock.Close()
}
