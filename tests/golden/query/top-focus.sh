# --focus and --ignore select samples through any frame whose function,
# file or mapping matches (POSIX extended regexes), after the total is
# taken, as go tool pprof -focus/-ignore; --nodecount on top.
trace-import -q data/pprof/gen/cpu.pb.gz data/pprof/gen/heap.pb.gz \
    data/pprof/sample.cpu.pb.gz data/pprof/large.cpu.pb.gz || exit 99
p=data/pprof/top-parity g=data/pprof/golden
for t in samples cpu; do
	trace-query -F csv top --profile 1 --sample-index $t \
	    --focus 'crunch|sort' --ignore Loop1 | sh $p $g/cpu-focus.$t.top.txt
	trace-query -F csv top --profile 1 --sample-index $t --focus main |
	    sh $p $g/cpu-focus-main.$t.top.txt
	trace-query -F csv top --profile 3 --sample-index $t \
	    --focus mapassign --nodecount 8 | sh $p $g/sample-focus.$t.top.txt
	trace-query -F csv top --profile 4 --sample-index $t \
	    --focus time --ignore runtime | sh $p $g/large-focus.$t.top.txt
done
for t in alloc_objects alloc_space inuse_objects inuse_space; do
	trace-query -F csv top --profile 2 --sample-index $t \
	    --ignore allocLarge | sh $p $g/heap-ignore.$t.top.txt
done
trace-query -F csv top --profile 1 --focus 'crunch|sort' --ignore Loop1
