package main

import (
	"syscall"
	"unsafe"
)

// clockGettime reads clock 'id' (1 = CLOCK_MONOTONIC) into ts.
func clockGettime(id int, ts unsafe.Pointer) {
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, uintptr(id), uintptr(ts), 0)
}
