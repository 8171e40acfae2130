package main

// The GPU telemetry the simulated GPU would have produced, written after
// the run from its real busy intervals and the trainer's device memory
// log (SYNTHETIC: no GPU was involved):
//   nvidia-smi.csv        --query-gpu=timestamp,index,name,uuid,
//                         utilization.gpu,memory.used,memory.total,
//                         power.draw --format=csv -lms 100
//   nvidia-smi-apps.csv   --query-compute-apps=timestamp,gpu_uuid,pid,
//                         process_name,used_gpu_memory --format=csv
//                         -lms 500
//   nvtop.json            nvtop -l -d 5 (3.3.2): a snapshot every 500 ms
// utilization.gpu is the share of each sample's period (the time since
// the previous sample) in which a kernel ran, rounded to a whole percent,
// as nvidia-smi prints it.

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

const (
	gpuName    = "SYNTHETIC GPU"
	gpuUUID    = "GPU-5c3e7a10-0d1f-4b2a-9e6c-7f0a1b2c3d4e"
	memTotal   = 81920 * mib
	memReserve = 437 * mib // the driver's own use of the device
	smiPeriod  = 100 * time.Millisecond
	appsPeriod = 500 * time.Millisecond
)

type gpuSample struct {
	ts   int64 // CLOCK_MONOTONIC
	util int   // percent
	mem  int64 // memory.used, bytes (whole MiB)
}

type busyLog struct {
	s, e []int64 // kernel intervals, in order
}

// busy is the kernel time within (a, b].
func (l *busyLog) busy(a, b int64) int64 {
	i := sort.Search(len(l.e), func(i int) bool { return l.e[i] > a })
	var t int64
	for ; i < len(l.s) && l.s[i] < b; i++ {
		s, e := l.s[i], l.e[i]
		if s < a {
			s = a
		}
		if e > b {
			e = b
		}
		if e > s {
			t += e - s
		}
	}
	return t
}

func wallTime(mono, off int64) time.Time {
	return time.Unix(0, mono+off)
}

func smiTime(mono, off int64) string {
	return wallTime(mono, off).Format("2006/01/02 15:04:05.000")
}

// jitter: nvidia-smi -lms sleeps its interval after each query, so its
// samples come a little later than the interval each time.
type lcg uint64

func (r *lcg) next() int64 {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int64(uint64(*r)>>33) % 1000000 // 0..1 ms
}

func writeGPU(st *driverState, p0 clockPair) []gpuSample {
	off := p0.Wall - (p0.Before+p0.After)/2
	var l busyLog
	for _, r := range st.steps {
		l.s = append(l.s, r.KernelStart)
		l.e = append(l.e, r.KernelEnd)
	}
	first := p0.After + int64(20*time.Millisecond)
	last := st.steps[len(st.steps)-1].KernelEnd + int64(smiPeriod)
	used := func(ts int64) int64 {
		return (memReserve + st.mem.at(ts)) &^ (mib - 1)
	}
	pid := os.Getpid()
	exe, _ := os.Executable()

	var samples []gpuSample
	f := create("nvidia-smi.csv")
	fmt.Fprintln(f, "timestamp, index, name, uuid, utilization.gpu [%], "+
		"memory.used [MiB], memory.total [MiB], power.draw [W]")
	rng := lcg(13)
	prev := first - int64(smiPeriod)
	for t := first; t <= last; t += int64(smiPeriod) + 500000 + rng.next() {
		util := int((200*l.busy(prev, t)/(t-prev) + 1) / 2)
		s := gpuSample{t, util, used(t)}
		samples = append(samples, s)
		fmt.Fprintf(f, "%s, 0, %s, %s, %d %%, %d MiB, %d MiB, %.2f W\n",
			smiTime(t, off), gpuName, gpuUUID, util, s.mem/mib,
			memTotal/mib, 70+3.3*float64(util))
		prev = t
	}
	f.Close()

	f = create("nvidia-smi-apps.csv")
	fmt.Fprintln(f, "timestamp, gpu_uuid, pid, process_name, "+
		"used_gpu_memory [MiB]")
	for t := first; t <= last; t += int64(appsPeriod) + 500000 + rng.next() {
		if m := st.mem.at(t); m > 0 {
			fmt.Fprintf(f, "%s, %s, %d, %s, %d MiB\n", smiTime(t, off),
				gpuUUID, pid, exe, m/mib)
		}
	}
	f.Close()

	// nvtop: no times in the output; the importer places snapshot k at
	// --start + k * --interval, so they are exactly 500 ms apart here.
	f = create("nvtop.json")
	nvtopStart = first
	for t := first; t <= last; t += int64(appsPeriod) {
		util := int((200*l.busy(t-int64(smiPeriod), t)/
			int64(smiPeriod) + 1) / 2)
		m := st.mem.at(t)
		tot := int64(memTotal)
		u := memReserve + m
		var procs []string
		if m > 0 {
			procs = append(procs, fmt.Sprintf(`      {
       "pid": "%d",
       "cmdline": %q,
       "kind": "compute",
       "user": "root",
       "gpu_usage": "%d%%",
       "gpu_mem_bytes_alloc": "%d",
       "gpu_mem_usage": "%d%%",
       "encode": null,
       "decode": null
      }`, pid, exe+" "+outDir, util, m, 100*m/tot))
		}
		fmt.Fprintf(f, `[
  {
   "device_name": %q,
   "gpu_clock": "%dMHz",
   "mem_clock": "1593MHz",
   "temp": "%dC",
   "fan_speed": "N/A",
   "power_draw": "%dW",
   "gpu_util": "%d%%",
   "encode": "0%%",
   "decode": "0%%",
   "mem_util": "%d%%",
   "mem_total": "%d",
   "mem_used": "%d",
   "mem_free": "%d",
   "processes" : [
%s   ]
  }
]
`, gpuName, 1110+3*util, 40+util/4, 70+33*util/10, util, util/2,
			tot, u, tot-u, procText(procs))
	}
	f.Close()
	return samples
}

var nvtopStart int64

func procText(procs []string) string {
	if len(procs) == 0 {
		return ""
	}
	return strings.Join(procs, ",\n") + "\n"
}
