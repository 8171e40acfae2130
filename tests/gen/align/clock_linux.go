package main

import (
	"syscall"
	"unsafe"
)

// monoNow reads CLOCK_MONOTONIC (clock id 1) in nanoseconds.
func monoNow() int64 {
	var ts [2]int64
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 1, uintptr(unsafe.Pointer(&ts[0])), 0)
	return ts[0]*1e9 + ts[1]
}

// wallNow reads CLOCK_REALTIME (clock id 0) in nanoseconds.
func wallNow() int64 {
	var ts [2]int64
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 0, uintptr(unsafe.Pointer(&ts[0])), 0)
	return ts[0]*1e9 + ts[1]
}
