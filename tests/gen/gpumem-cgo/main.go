// Command gpumemcgo is a stand-in for a Go service that holds device
// memory through cgo: each step calls C (c_step), which "allocates device
// memory" (malloc, invisible to the Go heap) and calls back into Go
// (goStep), where a cache keeps 64 KiB of Go heap per step and never lets
// go.  A second cache (main.warm) grows for the first steps only.  It
// writes, into the directory named by its argument, a heap profile every
// 5 steps (heap-N.pb.gz, MemProfileRate 1, after a GC) and the
// SYNTHETIC nvidia-smi --query-compute-apps CSV its device memory implies
// (apps.csv, one sample per step, local time: run it with TZ=UTC).
// Standard library and cgo only.  Run it through gen.sh.
package main

/*
#include <stdlib.h>

extern void goStep(int);

static void *dev[1024];
static int ndev;

// A device allocation through C: 8 MiB that Go never sees, then the
// callback into Go.
static void
c_step(int i)
{
	if (ndev < 1024)
		dev[ndev++] = malloc(8 << 20);
	goStep(i);
}

static int
c_ndev(void)
{
	return ndev;
}
*/
import "C"

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"
)

var cache [][]byte
var warmCache [][]byte

//export goStep
func goStep(i C.int) {
	cache = append(cache, make([]byte, 64<<10))
	if i < 4 {
		warm()
	}
}

//go:noinline
func warm() {
	warmCache = append(warmCache, make([]byte, 256<<10))
}

//go:noinline
func step(i int) {
	C.c_step(C.int(i))
}

func main() {
	runtime.MemProfileRate = 1
	dir := os.Args[1]
	apps, err := os.Create(filepath.Join(dir, "apps.csv"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(apps, "timestamp, gpu_uuid, pid, process_name, "+
		"used_gpu_memory [MiB]")
	const steps = 30
	for i := 0; i <= steps; i++ {
		if i < steps {
			step(i)
		}
		used := 512 + 8*int(C.c_ndev())
		now := time.Now().Format("2006/01/02 15:04:05.000")
		fmt.Fprintf(apps, "%s, GPU-00c90c90-0000-4000-8000-"+
			"000000000000, %d, gpumemcgo, %d MiB\n", now,
			os.Getpid(), used)
		if i%5 == 0 {
			runtime.GC()
			f, err := os.Create(filepath.Join(dir,
				fmt.Sprintf("heap-%d.pb.gz", i/5)))
			if err != nil {
				log.Fatal(err)
			}
			if err := pprof.WriteHeapProfile(f); err != nil {
				log.Fatal(err)
			}
			f.Close()
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := apps.Close(); err != nil {
		log.Fatal(err)
	}
}
