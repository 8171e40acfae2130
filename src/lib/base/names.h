/*
 * The canonical strings of the store: track kinds, the Go trace's
 * goroutine states, blocking reasons and annotation categories, and the
 * GPU metric names.  Importers write them, the views of store/db.c, the
 * queries, trace-flame and trace-align read them back: each is spelled
 * here once, and documented in trace-store(5).  String literals, so that
 * they join SQL text ("WHERE kind = '" TR_TRACK_GPU "'").
 */
#ifndef TR_NAMES_H
#define TR_NAMES_H

/* --- track.kind ------------------------------------------------------ */

#define TR_TRACK_GOROUTINE	"goroutine"	/* ref: goid */
#define TR_TRACK_GO_PROC	"go-proc"	/* ref: P id */
#define TR_TRACK_GO_GC		"go-gc"		/* GC cycles, sweeps, assists */
#define TR_TRACK_GO_STW		"go-stw"	/* stop-the-world pauses */
#define TR_TRACK_GO_HEAP	"go-heap"	/* HeapAlloc, HeapGoal */
#define TR_TRACK_GO_RUNTIME	"go-runtime"	/* GOMAXPROCS */
#define TR_TRACK_GO_TASK	"go-task"	/* ref: task id; tasks, regions,
						   logs */
#define TR_TRACK_GPU		"gpu"		/* ref: GPU index */
#define TR_TRACK_GPU_PROCESS	"gpu-process"	/* ref: GPU index */
#define TR_TRACK_CLOCK		"clock"		/* clock.json anchors */

/* --- goroutine states: slice name on a goroutine track --------------- */

#define TR_GO_STATE_RUNNING	"running"
#define TR_GO_STATE_RUNNABLE	"runnable"
#define TR_GO_STATE_BLOCKED	"blocked"
#define TR_GO_STATE_SYSCALL	"syscall"	/* a goroutine in a syscall */

/*
 * Blocking reasons: the category of a blocked state, normalised across
 * trace versions (the runtime's own wording goes in args "reason").
 * "created" is the category of a new goroutine's first runnable state.
 */
#define TR_GO_REASON_CHAN_RECV	"chan recv"
#define TR_GO_REASON_CHAN_SEND	"chan send"
#define TR_GO_REASON_SELECT	"select"
#define TR_GO_REASON_SYNC	"sync"
#define TR_GO_REASON_COND	"cond"
#define TR_GO_REASON_NET	"net"
#define TR_GO_REASON_SYSCALL	"syscall"
#define TR_GO_REASON_SLEEP	"sleep"
#define TR_GO_REASON_GC		"GC"
#define TR_GO_REASON_FOREVER	"forever"
#define TR_GO_REASON_OTHER	"other"
#define TR_GO_REASON_UNKNOWN	"unknown"
#define TR_GO_REASON_CREATED	"created"

/* --- other Go trace slices and counters (slice name or category) ----- */

#define TR_GO_GC		"GC"		/* name on go-gc */
#define TR_GO_SWEEP		"sweep"
#define TR_GO_ASSIST		"mark assist"
#define TR_GO_CAT_TASK		"task"		/* category on go-task */
#define TR_GO_CAT_REGION	"region"
#define TR_GO_CAT_LOG		"log"
#define TR_GO_EVENT_CPU		"cpu"		/* event of the CPU samples */
#define TR_GO_HEAP_ALLOC	"HeapAlloc"	/* counters on go-heap */
#define TR_GO_HEAP_GOAL		"HeapGoal"
#define TR_GO_GOMAXPROCS	"GOMAXPROCS"	/* counter on go-runtime */

/* --- profile.type (pprof): what --type selects ---------------------- */

#define TR_PROFILE_CPU		"cpu"
#define TR_PROFILE_HEAP		"heap"		/* inuse_*: a snapshot */
#define TR_PROFILE_ALLOCS	"allocs"	/* alloc_* as the default */
#define TR_PROFILE_MUTEX	"mutex"
#define TR_PROFILE_BLOCK	"block"
#define TR_PROFILE_GOROUTINE	"goroutine"	/* a snapshot */
#define TR_PROFILE_THREADCREATE	"threadcreate"
#define TR_PROFILE_OTHER	"other"

/* --- GPU metrics: counter name on a gpu or gpu-process track --------- */

#define TR_METRIC_GPU_UTIL	"utilization.gpu"	/* %, SM busy */
#define TR_METRIC_MEM_UTIL	"utilization.memory"	/* % */
#define TR_METRIC_ENC_UTIL	"utilization.encoder"	/* % */
#define TR_METRIC_DEC_UTIL	"utilization.decoder"	/* % */
#define TR_METRIC_ENCDEC_UTIL	"utilization.encoder_decoder"	/* % */
#define TR_METRIC_JPEG_UTIL	"utilization.jpeg"	/* % */
#define TR_METRIC_OFA_UTIL	"utilization.ofa"	/* % */
#define TR_METRIC_MEM_USED	"memory.used"		/* bytes */
#define TR_METRIC_MEM_FREE	"memory.free"		/* bytes */
#define TR_METRIC_MEM_TOTAL	"memory.total"		/* bytes */
#define TR_METRIC_MEM_USED_PCT	"memory.used_percent"	/* % */
#define TR_METRIC_BAR1_USED	"memory.bar1.used"	/* bytes */
#define TR_METRIC_POWER		"power.draw"		/* W */
#define TR_METRIC_TEMP		"temperature.gpu"	/* C */
#define TR_METRIC_CLOCK_GR	"clocks.gr"		/* MHz */
#define TR_METRIC_CLOCK_MEM	"clocks.mem"		/* MHz */

#endif
