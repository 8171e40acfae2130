package main

// The simulated devices: one child process per device (the same binary,
// run as "gpusim" or "storesim"), driven over blocking pipes so that the
// Go side waits in a read(2) or write(2) syscall, as it would in a CUDA
// synchronize through cgo or on a slow network file system.
//
// Commands, one line each, on the child's fd 3; replies on its fd 4:
//   K ns      run a kernel of ns nanoseconds (sleep), then reply
//             "start_ns end_ns" on CLOCK_MONOTONIC
//   R ns n    a storage read: wait ns, then reply n bytes
// A storage child also drains its fd 5 (the checkpoint sink) at a fixed
// rate: 64 KiB every 20 ms, about 3.2 MB/s, and serves as a parameter
// server on a TCP port of 127.0.0.1, which it first replies "P port": each
// request "G ns" gets 4 KiB back after ns.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const sinkChunk = 64 << 10
const sinkPause = 20 * time.Millisecond

// deviceMain is the child's main: it never returns.
func deviceMain(withSink bool) {
	in := os.NewFile(3, "cmd")
	out := os.NewFile(4, "reply")
	if withSink {
		go drain(os.NewFile(5, "sink"))
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		check(err)
		fmt.Fprintf(out, "P %d\n", ln.Addr().(*net.TCPAddr).Port)
		go serve(ln)
	}
	r := bufio.NewReader(in)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			os.Exit(0)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		ns, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "K":
			t0 := monoNow()
			time.Sleep(time.Duration(ns))
			t1 := monoNow()
			fmt.Fprintf(out, "%d %d\n", t0, t1)
		case "R":
			n, _ := strconv.Atoi(f[2])
			time.Sleep(time.Duration(ns))
			out.Write(make([]byte, n))
		}
	}
}

func serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					c.Close()
					return
				}
				var ns int64
				fmt.Sscanf(line, "G %d", &ns)
				time.Sleep(time.Duration(ns))
				c.Write(make([]byte, psReply))
			}
		}()
	}
}

const psReply = 4096

// A connection to the parameter server: the driver waits for its replies
// in the netpoller.
type paramServer struct {
	conn net.Conn
	buf  []byte
}

func dialParamServer(port int) *paramServer {
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	check(err)
	return &paramServer{c, make([]byte, psReply)}
}

func (p *paramServer) fetch(delay time.Duration) {
	_, err := fmt.Fprintf(p.conn, "G %d\n", int64(delay))
	check(err)
	_, err = io.ReadFull(p.conn, p.buf)
	check(err)
}

func drain(f *os.File) {
	buf := make([]byte, sinkChunk)
	for {
		if _, err := f.Read(buf); err != nil {
			return
		}
		time.Sleep(sinkPause)
	}
}

// A device as the parent sees it: raw blocking file descriptors.
type device struct {
	cmd  *exec.Cmd
	wfd  int // commands
	rfd  int // replies
	sink int // the checkpoint sink, or -1
	port int // the parameter server's, with the sink
	rbuf []byte
}

// startDevice runs this binary again under the name given (so that perf
// shows it as its own command), with blocking pipes.
func startDevice(dir, name string, withSink bool) *device {
	self, err := os.Executable()
	check(err)
	link, err := filepath.Abs(filepath.Join(dir, name))
	check(err)
	os.Remove(link)
	check(os.Symlink(self, link))
	var c2p, p2c [2]int
	check(syscall.Pipe2(p2c[:], syscall.O_CLOEXEC))
	check(syscall.Pipe2(c2p[:], syscall.O_CLOEXEC))
	d := &device{wfd: p2c[1], rfd: c2p[0], sink: -1}
	files := []*os.File{os.NewFile(uintptr(p2c[0]), "cmd"),
		os.NewFile(uintptr(c2p[1]), "reply")}
	if withSink {
		var s [2]int
		check(syscall.Pipe2(s[:], syscall.O_CLOEXEC))
		d.sink = s[1]
		files = append(files, os.NewFile(uintptr(s[0]), "sink"))
	}
	d.cmd = exec.Command(link, "device")
	if withSink {
		d.cmd.Args = append(d.cmd.Args, "sink")
	}
	d.cmd.Dir = dir
	d.cmd.ExtraFiles = files
	d.cmd.Stderr = os.Stderr
	check(d.cmd.Start())
	for _, f := range files {
		f.Close()
	}
	if withSink {
		fmt.Sscanf(d.readLine(), "P %d", &d.port)
	}
	return d
}

func (d *device) send(s string) {
	b := []byte(s)
	for len(b) > 0 {
		n, err := syscall.Write(d.wfd, b)
		if err == syscall.EINTR {
			continue
		}
		check(err)
		b = b[n:]
	}
}

// readLine reads one reply line with blocking read(2) calls.
func (d *device) readLine() string {
	for {
		if i := strings.IndexByte(string(d.rbuf), '\n'); i >= 0 {
			s := string(d.rbuf[:i])
			d.rbuf = d.rbuf[i+1:]
			return s
		}
		var b [64]byte
		n, err := syscall.Read(d.rfd, b[:])
		if err == syscall.EINTR {
			continue
		}
		check(err)
		if n == 0 {
			panic("device closed")
		}
		d.rbuf = append(d.rbuf, b[:n]...)
	}
}

// kernel runs one kernel of dur and waits for it: the driver sits in a
// blocking read(2) meanwhile.  It returns the device's busy interval.
func (d *device) kernel(dur time.Duration) (int64, int64) {
	d.send(fmt.Sprintf("K %d\n", int64(dur)))
	var s, e int64
	fmt.Sscanf(d.readLine(), "%d %d", &s, &e)
	return s, e
}

// read asks the storage device for n bytes after a delay and reads them.
func (d *device) read(delay time.Duration, buf []byte) {
	d.send(fmt.Sprintf("R %d %d\n", int64(delay), len(buf)))
	for got := 0; got < len(buf); {
		n, err := syscall.Read(d.rfd, buf[got:])
		if err == syscall.EINTR {
			continue
		}
		check(err)
		got += n
	}
}

// write sends buf to the checkpoint sink, blocking while it drains.
func (d *device) write(buf []byte) {
	for len(buf) > 0 {
		n, err := syscall.Write(d.sink, buf)
		if err == syscall.EINTR {
			continue
		}
		check(err)
		buf = buf[n:]
	}
}

func (d *device) stop() {
	syscall.Close(d.wfd)
	if d.sink >= 0 {
		syscall.Close(d.sink)
	}
	d.cmd.Wait()
	syscall.Close(d.rfd)
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
