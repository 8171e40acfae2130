// Command pprofgen writes one profile of each kind Go's runtime/pprof
// produces, for tracekit's pprof tests: cpu (with labels), heap, allocs,
// block (SetBlockProfileRate(1)), mutex (SetMutexProfileFraction(1)),
// goroutine and threadcreate; with -series N, N heap profiles of a
// process whose heap grows between snapshots.
//
// Run it through regen.sh, which also writes the go tool pprof goldens.
// Standard library only, so it builds offline with Debian's golang-go.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink []byte

// Small functions the compiler inlines, so CPU samples carry inlined
// frames (Location.Line with several entries).
func mix(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

func rot(x uint64) uint64 { return x<<13 | x>>51 }

//go:noinline
func crunch(n int) uint64 {
	var x uint64 = 1
	for i := 0; i < n; i++ {
		x = rot(mix(x))
	}
	return x
}

//go:noinline
func hashLoop(d time.Duration) uint64 {
	var s uint64
	for end := time.Now().Add(d); time.Now().Before(end); {
		s += crunch(20000)
	}
	return s
}

//go:noinline
func sortLoop(d time.Duration) int {
	n := 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		a := make([]int, 2048)
		for i := range a {
			a[i] = (i * 7919) % 2048
		}
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && a[j-1] > a[j]; j-- {
				a[j-1], a[j] = a[j], a[j-1]
			}
		}
		n += a[0]
	}
	return n
}

func writeProfile(dir, name string, write func(f *os.File) error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		log.Fatal(err)
	}
	if err := write(f); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func lookup(name string) func(f *os.File) error {
	return func(f *os.File) error { return pprof.Lookup(name).WriteTo(f, 0) }
}

func cpuProfile(dir string) {
	writeProfile(dir, "cpu.pb.gz", func(f *os.File) error {
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		var wg sync.WaitGroup
		for _, w := range []string{"hash", "sort"} {
			wg.Add(1)
			go func(w string) {
				defer wg.Done()
				labels := pprof.Labels("worker", w, "stage", "run")
				pprof.Do(context.Background(), labels,
					func(context.Context) {
						if w == "hash" {
							hashLoop(1500 * time.Millisecond)
						} else {
							sortLoop(1000 * time.Millisecond)
						}
					})
			}(w)
		}
		wg.Wait()
		pprof.StopCPUProfile()
		return nil
	})
}

type node struct {
	next *node
	buf  []byte
}

var live []*node

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		live = append(live, &node{buf: make([]byte, 64)})
	}
}

//go:noinline
func allocLarge(n int) {
	for i := 0; i < n; i++ {
		live = append(live, &node{buf: make([]byte, 64<<10)})
	}
}

//go:noinline
func allocTemp(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 8<<10)
	}
}

func memProfiles(dir string) {
	allocSmall(5000)
	allocLarge(40)
	allocTemp(2000)
	runtime.GC()
	writeProfile(dir, "heap.pb.gz", lookup("heap"))
	writeProfile(dir, "allocs.pb.gz", lookup("allocs"))
}

//go:noinline
func chanWait(ch chan int) { <-ch }

//go:noinline
func lockHolder(mu *sync.Mutex, d time.Duration) {
	mu.Lock()
	time.Sleep(d)
	mu.Unlock()
}

//go:noinline
func lockWaiter(mu *sync.Mutex) {
	mu.Lock()
	sink = sink[:0]
	mu.Unlock()
}

func contention() {
	ch := make(chan int)
	go func() {
		time.Sleep(20 * time.Millisecond)
		ch <- 1
	}()
	chanWait(ch)

	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); lockHolder(&mu, 5*time.Millisecond) }()
		go func() { defer wg.Done(); lockWaiter(&mu) }()
	}
	wg.Wait()
}

func blockProfiles(dir string) {
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	contention()
	writeProfile(dir, "block.pb.gz", lookup("block"))
	writeProfile(dir, "mutex.pb.gz", lookup("mutex"))
	runtime.SetBlockProfileRate(0)
	runtime.SetMutexProfileFraction(0)
}

//go:noinline
func parked(ch chan int) { <-ch }

func goroutineProfiles(dir string) {
	ch := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		w := fmt.Sprint("w", i%2)
		go pprof.Do(context.Background(), pprof.Labels("pool", w),
			func(context.Context) {
				wg.Done()
				parked(ch)
			})
	}
	wg.Wait()
	time.Sleep(10 * time.Millisecond)
	writeProfile(dir, "goroutine.pb.gz", lookup("goroutine"))
	writeProfile(dir, "threadcreate.pb.gz", lookup("threadcreate"))
	close(ch)
}

// A leak that grows by a different stack at each step.
//
//go:noinline
func leakA(n int) {
	for i := 0; i < n; i++ {
		live = append(live, &node{buf: make([]byte, 4096)})
	}
}

//go:noinline
func leakB(n int) {
	for i := 0; i < n; i++ {
		live = append(live, &node{buf: make([]byte, 512)})
	}
}

func series(dir string, n int) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for i := 0; i < n; i++ {
		leakA(50 + 10*i)
		if i%2 == 1 {
			leakB(200)
		}
		allocTemp(100)
		runtime.GC()
		writeProfile(dir, fmt.Sprintf("heap-%03d.pb.gz", i),
			lookup("heap"))
	}
}

func main() {
	out := flag.String("o", ".", "output directory")
	nseries := flag.Int("series", 0, "write only N heap profiles of a growing heap")
	rate := flag.Int("memrate", 4096, "runtime.MemProfileRate")
	flag.Parse()
	runtime.MemProfileRate = *rate
	if *nseries > 0 {
		series(*out, *nseries)
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	cpuProfile(*out)
	memProfiles(*out)
	blockProfiles(*out)
	goroutineProfiles(*out)
}
