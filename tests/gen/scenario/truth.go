package main

// The ground truth of a run: truth.json (the phases, their causes and
// windows, the memory phases and their slopes) and steps.csv (every step).
// Times are CLOCK_MONOTONIC nanoseconds, the store's timeline; *_wall_ns
// are the same instants as UTC nanoseconds since the epoch.

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"
)

type phaseTruth struct {
	Name          string  `json:"name"`
	Cause         *string `json:"cause"`
	Episode       bool    `json:"episode"`
	StartNs       int64   `json:"start_ns"`
	EndNs         int64   `json:"end_ns"`
	StartWallNs   int64   `json:"start_wall_ns"`
	EndWallNs     int64   `json:"end_wall_ns"`
	Start         string  `json:"start"`
	End           string  `json:"end"`
	InjectStartNs int64   `json:"inject_start_ns"`
	InjectEndNs   int64   `json:"inject_end_ns"`
	DriverGoid    int64   `json:"driver_goid"`
	Waker         string  `json:"waker_function,omitempty"`
	WakerState    string  `json:"waker_state,omitempty"`
	Spawned       int64   `json:"goroutines_created,omitempty"`
	Steps         int     `json:"steps"`
	StepP50Ns     int64   `json:"step_p50_ns"`
	StepMaxNs     int64   `json:"step_max_ns"`
	GPUBusy       float64 `json:"gpu_busy_share"`
	SMIUtil       float64 `json:"smi_util_mean"`
	SMISamples    int     `json:"smi_samples"`
}

type memTruth struct {
	Name        string  `json:"name"`
	Verdict     string  `json:"verdict"`
	Pid         int     `json:"pid"`
	GPU         int     `json:"gpu"`
	StartNs     int64   `json:"start_ns"`
	EndNs       int64   `json:"end_ns"`
	StartWallNs int64   `json:"start_wall_ns"`
	EndWallNs   int64   `json:"end_wall_ns"`
	StartBytes  int64   `json:"start_bytes"`
	EndBytes    int64   `json:"end_bytes"`
	PeakBytes   int64   `json:"peak_bytes"`
	Growth      int64   `json:"growth_bytes"`
	Released    int64   `json:"released_bytes"`
	Slope       float64 `json:"slope_bytes_per_min"`
	R2          float64 `json:"r2"`
	Note        string  `json:"note"`
}

func ptr(s string) *string { return &s }

func iso(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// effect finds the GPU side of an injected phase: from the end of the
// kernel before the first long gap (over 3/2 of a kernel) that begins in
// the phase, to the start of the kernel after the last such gap, which
// may begin a little after the phase was switched off (a read in flight).
func effect(st *driverState, in injected) (int64, int64) {
	lim := int64(kernelDur) * 3 / 2
	var s, e int64
	for i := 0; i+1 < len(st.steps); i++ {
		a, b := st.steps[i].KernelEnd, st.steps[i+1].KernelStart
		if b-a < lim || a < in.start-int64(kernelDur) ||
			a > in.end+int64(10*time.Millisecond) {
			continue
		}
		if s == 0 {
			s = a
		}
		e = b
	}
	if s == 0 {
		return in.start, in.end
	}
	return s, e
}

// lsq fits y = a + b*x; it returns b and r².
func lsq(x, y []float64) (float64, float64) {
	n := float64(len(x))
	var sx, sy, sxx, sxy, syy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
		syy += y[i] * y[i]
	}
	vx := sxx - sx*sx/n
	vy := syy - sy*sy/n
	cxy := sxy - sx*sy/n
	if vx == 0 || vy == 0 {
		return 0, 0
	}
	return cxy / vx, cxy * cxy / (vx * vy)
}

func writeTruth(st *driverState, phases []injected, p0 clockPair,
	smi []gpuSample) {
	off := p0.Wall - (p0.Before+p0.After)/2
	var l busyLog
	for _, r := range st.steps {
		l.s = append(l.s, r.KernelStart)
		l.e = append(l.e, r.KernelEnd)
	}
	// The windows: an injected phase's from its effect on the GPU, a
	// normal phase's between the effects of its neighbours.
	win := make([][2]int64, len(phases))
	for i, in := range phases {
		win[i] = [2]int64{in.start, in.end}
		if in.def.cause != "" {
			win[i][0], win[i][1] = effect(st, in)
		}
	}
	for i, in := range phases {
		if in.def.cause != "" {
			continue
		}
		if i > 0 && win[i-1][1] > win[i][0] {
			win[i][0] = win[i-1][1]
		}
		if i+1 < len(phases) && win[i+1][0] < win[i][1] {
			win[i][1] = win[i+1][0]
		}
	}
	var out []phaseTruth
	for i, in := range phases {
		t := phaseTruth{Name: in.def.name, InjectStartNs: in.start,
			InjectEndNs: in.end, DriverGoid: st.goid,
			StartNs: win[i][0], EndNs: win[i][1],
			Waker: in.def.waker, WakerState: in.def.wakerState,
			Spawned: in.spawned}
		if in.def.cause != "" {
			t.Cause = ptr(in.def.cause)
			t.Episode = true
		}
		t.StartWallNs, t.EndWallNs = t.StartNs+off, t.EndNs+off
		t.Start = iso(wallTime(t.StartNs, off))
		t.End = iso(wallTime(t.EndNs, off))
		var lat []int64
		for _, r := range st.steps {
			if r.StartNs >= in.start && r.StartNs < in.end {
				lat = append(lat, r.EndNs-r.StartNs)
			}
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Steps = len(lat)
		if len(lat) > 0 {
			t.StepP50Ns = lat[len(lat)/2]
			t.StepMaxNs = lat[len(lat)-1]
		}
		t.GPUBusy = round3(float64(l.busy(t.StartNs, t.EndNs)) /
			float64(t.EndNs-t.StartNs))
		sum := 0
		for _, s := range smi {
			if s.ts > t.StartNs && s.ts <= t.EndNs {
				sum += s.util
				t.SMISamples++
			}
		}
		if t.SMISamples > 0 {
			t.SMIUtil = round3(float64(sum) / float64(t.SMISamples))
		}
		out = append(out, t)
	}

	mark := map[string]int64{}
	for _, m := range st.marks {
		mark[m.name] = m.ts
	}
	mem := func(name, verdict, from, to, note string) memTruth {
		m := memTruth{Name: name, Verdict: verdict, Pid: os.Getpid(),
			StartNs: mark[from], EndNs: mark[to], Note: note}
		m.StartWallNs, m.EndWallNs = m.StartNs+off, m.EndNs+off
		m.StartBytes = st.mem.at(m.StartNs - 1)
		m.EndBytes = st.mem.at(m.EndNs)
		m.Growth = m.EndBytes - m.StartBytes
		m.PeakBytes = m.StartBytes
		var xs, ys []float64
		for _, e := range st.mem.events {
			if e.ts >= m.StartNs && e.ts <= m.EndNs &&
				e.bytes > m.PeakBytes {
				m.PeakBytes = e.bytes
			}
		}
		m.Released = m.PeakBytes - m.EndBytes
		// The slope of the true device memory, sampled every 10 ms.
		for t := m.StartNs; t <= m.EndNs; t += 1e7 {
			xs = append(xs, float64(t-m.StartNs)/60e9)
			ys = append(ys, float64(st.mem.at(t)))
		}
		m.Slope, m.R2 = lsq(xs, ys)
		m.Slope = float64(int64(m.Slope))
		m.R2 = round3(m.R2)
		return m
	}
	mark["run_end"] = st.steps[len(st.steps)-1].KernelEnd
	memOut := []memTruth{
		mem("warmup", "plateau", "warmup_start", "sawtooth_start",
			"the allocator pool grows in shrinking chunks (256 MiB, "+
				"x0.9 per step) from warmup_start to warmup_end, "+
				"then stays"),
		mem("sawtooth", "sawtooth", "sawtooth_start", "sawtooth_end",
			"32 MiB of activations per step, freed every 48 steps "+
				"and at the end"),
		mem("leak", "leak", "leak_start", "leak_end",
			"main.(*stepCache).add: 8 MiB of device memory, "+
				"256 KiB of Go heap and 16 goroutines blocked in "+
				"main.(*stepCache).waitEvict per step, never freed"),
	}
	memOut[0].Note += fmt.Sprintf(" (warmup_end_ns %d)", mark["warmup_end"])

	exe, _ := os.Executable()
	doc := map[string]interface{}{
		"tracekit_scenario":  1,
		"go_version":         runtime.Version(),
		"gomaxprocs":         runtime.GOMAXPROCS(0),
		"pid":                os.Getpid(),
		"process":            exe,
		"driver_goid":        st.goid,
		"driver_function":    "main.driver",
		"kernel_ns":          int64(kernelDur),
		"stall_ns":           int64(stallDur),
		"wall_minus_mono_ns": off,
		"gpu": map[string]interface{}{
			"index": 0, "name": gpuName, "uuid": gpuUUID,
			"smi_interval_ns":       int64(smiPeriod),
			"apps_interval_ns":      int64(appsPeriod),
			"memory_reserved_bytes": int64(memReserve),
		},
		"nvtop": map[string]interface{}{
			"start_wall_ns": nvtopStart + off,
			"start":         fmt.Sprintf("@%.3f", float64(nvtopStart+off)/1e9),
			"interval":      "500ms",
		},
		"leak": map[string]interface{}{
			"go_alloc_function":     "main.(*stepCache).add",
			"go_bytes_per_step":     256 << 10,
			"device_bytes_per_step": 8 * mib,
			"goroutines_per_step":   16,
			"goroutine_function":    "main.(*stepCache).waitEvict",
		},
		"phases": out,
		"memory": memOut,
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	check(err)
	f := create("truth.json")
	f.Write(append(b, '\n'))
	f.Close()

	f = create("steps.csv")
	fmt.Fprintln(f, "step,phase,start_ns,end_ns,kernel_start_ns,"+
		"kernel_end_ns")
	for _, r := range st.steps {
		fmt.Fprintf(f, "%d,%s,%d,%d,%d,%d\n", r.Step, r.Phase,
			r.StartNs, r.EndNs, r.KernelStart, r.KernelEnd)
	}
	f.Close()
}

func round3(v float64) float64 {
	return float64(int64(v*1000+0.5)) / 1000
}
