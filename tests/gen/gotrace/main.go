// Command gotracegen runs a short workload that exercises every way a
// goroutine blocks, the GC, user annotations and CPU profiling, under
// runtime/trace, for tracekit's Go trace importer tests.  Run it with
// gen.sh.
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"syscall"
	"time"
)

var sink [][]byte

// burn keeps a CPU busy so that CPU profile samples land in the trace.
func burn(d time.Duration) int {
	n := 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 10000; i++ {
			n += i * i
		}
	}
	return n
}

// alloc allocates enough to start GC cycles and mark assists.
func alloc(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 64<<10))
		if len(sink) > 256 {
			sink = sink[:0]
		}
	}
}

func chanPingPong(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	defer trace.StartRegion(ctx, "chan").End()
	c := make(chan int)
	done := make(chan bool)
	go func() {
		for v := range c {
			time.Sleep(200 * time.Microsecond)
			_ = v
		}
		done <- true
	}()
	for i := 0; i < 20; i++ {
		c <- i // blocks: the receiver sleeps between receives
	}
	close(c)
	<-done // blocks on receive
}

func selectWait(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	trace.WithRegion(ctx, "select", func() {
		a, b := make(chan int), make(chan int)
		go func() {
			for i := 0; i < 10; i++ {
				time.Sleep(300 * time.Microsecond)
				if i%2 == 0 {
					a <- i
				} else {
					b <- i
				}
			}
		}()
		for i := 0; i < 10; i++ {
			select {
			case <-a:
			case <-b:
			}
		}
	})
}

func mutexContention(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	defer trace.StartRegion(ctx, "mutex").End()
	var mu sync.Mutex
	var inner sync.WaitGroup
	for i := 0; i < 4; i++ {
		inner.Add(1)
		go func() {
			defer inner.Done()
			for j := 0; j < 20; j++ {
				mu.Lock()
				burn(100 * time.Microsecond)
				mu.Unlock()
			}
		}()
	}
	inner.Wait() // blocks on a semaphore: sync
}

func condWait(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	defer trace.StartRegion(ctx, "cond").End()
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := 0
	for i := 0; i < 3; i++ {
		go func() {
			mu.Lock()
			for ready == 0 {
				c.Wait()
			}
			mu.Unlock()
		}()
	}
	time.Sleep(2 * time.Millisecond)
	mu.Lock()
	ready = 1
	c.Broadcast()
	mu.Unlock()
}

func network(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	defer trace.StartRegion(ctx, "net").End()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		conn, err := ln.Accept() // blocks in the netpoller
		if err != nil {
			panic(err)
		}
		buf := make([]byte, 64)
		for {
			n, err := conn.Read(buf)
			if err == io.EOF {
				break
			}
			if err != nil {
				panic(err)
			}
			time.Sleep(500 * time.Microsecond)
			conn.Write(buf[:n])
		}
		conn.Close()
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 64)
	for i := 0; i < 10; i++ {
		fmt.Fprintf(conn, "ping %d", i)
		if _, err := conn.Read(buf); err != nil { // blocks: net
			panic(err)
		}
	}
	conn.Close()
	ln.Close()
}

func syscalls(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	defer trace.StartRegion(ctx, "syscall").End()
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		panic(err)
	}
	go func() {
		for i := 0; i < 5; i++ {
			time.Sleep(time.Millisecond)
			syscall.Write(p[1], []byte{byte(i)})
		}
	}()
	buf := make([]byte, 1)
	for i := 0; i < 5; i++ {
		// A blocking read on a blocking pipe: the P is handed off.
		if _, err := syscall.Read(p[0], buf); err != nil {
			panic(err)
		}
	}
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 20; i++ {
		f.Write(buf) // fast syscalls
	}
	f.Close()
	syscall.Close(p[0])
	syscall.Close(p[1])
}

func sleeper(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	trace.Log(ctx, "sleep", "begin")
	for i := 0; i < 5; i++ {
		time.Sleep(time.Millisecond)
	}
	trace.Log(ctx, "sleep", "end")
}

func garbage(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	defer trace.StartRegion(ctx, "gc").End()
	var inner sync.WaitGroup
	for i := 0; i < 3; i++ {
		inner.Add(1)
		go func() {
			defer inner.Done()
			alloc(400)
		}()
	}
	inner.Wait()
}

// blockedAtStart sits in a blocking read when tracing starts (the trace
// says GoInSyscall) and returns when main writes to the pipe.
func blockedAtStart() (fd int, done chan bool) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		panic(err)
	}
	done = make(chan bool)
	go func() {
		buf := make([]byte, 1)
		syscall.Read(p[0], buf)
		syscall.Close(p[0])
		done <- true
	}()
	time.Sleep(10 * time.Millisecond)
	return p[1], done
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gotracegen trace.out")
		os.Exit(2)
	}
	out, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	runtime.GOMAXPROCS(4)
	fd, unblocked := blockedAtStart()
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		panic(err)
	}
	if err := trace.Start(out); err != nil {
		panic(err)
	}
	ctx, task := trace.NewTask(context.Background(), "gotracegen")
	trace.Log(ctx, "phase", "start")
	var wg sync.WaitGroup
	work := []func(context.Context, *sync.WaitGroup){
		chanPingPong, selectWait, mutexContention, condWait, network,
		syscalls, sleeper, garbage,
	}
	for _, f := range work {
		wg.Add(1)
		go f(ctx, &wg)
	}
	go func() {
		select {} // parked for good: GoStop
	}()
	burn(150 * time.Millisecond)
	syscall.Write(fd, []byte{1})
	<-unblocked
	syscall.Close(fd)
	wg.Wait()
	trace.Log(ctx, "phase", "end")
	task.End()
	trace.Stop()
	pprof.StopCPUProfile()
	if err := out.Close(); err != nil {
		panic(err)
	}
}
