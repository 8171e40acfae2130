// Command gotrace-load writes a Go execution trace of a busy program for
// bench/gotrace-import.sh: many goroutines passing messages over channels,
// contending on mutexes, sleeping, allocating (GC cycles and assists), in
// user tasks and regions, for the given duration.  With SECONDS 0: that
// many goroutines that each run once and end.  With a fourth argument
// "burst": every 5 ms for SECONDS, GOROUTINES new goroutines that each
// wait 1 ms on a timer's channel and end (a server's handlers).
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

var sink [][]byte

func main() {
	if len(os.Args) != 4 && (len(os.Args) != 5 || os.Args[4] != "burst") {
		fmt.Fprintln(os.Stderr, "usage: gotrace-load OUT SECONDS GOROUTINES [burst]")
		os.Exit(2)
	}
	out, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	secs, _ := strconv.ParseFloat(os.Args[2], 64)
	n, _ := strconv.Atoi(os.Args[3])
	if err := trace.Start(out); err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	if len(os.Args) == 5 {
		end := time.Now().Add(time.Duration(secs * float64(time.Second)))
		for time.Now().Before(end) {
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-time.After(time.Millisecond)
				}()
			}
			time.Sleep(5 * time.Millisecond)
		}
		wg.Wait()
		trace.Stop()
		if err := out.Close(); err != nil {
			panic(err)
		}
		return
	}
	if secs == 0 {
		// The other extreme: GOROUTINES goroutines that each run once.
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() { wg.Done() }()
		}
		wg.Wait()
		trace.Stop()
		if err := out.Close(); err != nil {
			panic(err)
		}
		return
	}
	end := time.Now().Add(time.Duration(secs * float64(time.Second)))
	var mu sync.Mutex
	var allocMu sync.Mutex
	shared := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, task := trace.NewTask(context.Background(), "worker")
			defer task.End()
			in := make(chan int)
			go func() {
				for v := range in {
					if v%7 == 0 {
						time.Sleep(time.Duration(v%5) * time.Millisecond)
					}
				}
			}()
			for j := 0; time.Now().Before(end); j++ {
				trace.WithRegion(ctx, "step", func() {
					in <- j
					mu.Lock()
					shared++
					mu.Unlock()
					if j%16 == 0 {
						allocMu.Lock()
						sink = append(sink, make([]byte, 4096))
						if len(sink) > 4096 {
							sink = sink[:0]
						}
						allocMu.Unlock()
					}
				})
			}
			close(in)
		}(i)
	}
	wg.Wait()
	trace.Stop()
	if err := out.Close(); err != nil {
		panic(err)
	}
}
