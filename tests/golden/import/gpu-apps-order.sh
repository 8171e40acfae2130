# A --query-compute-apps CSV names its GPU by uuid only: the index comes
# from a --query-gpu CSV of the same GPU, imported before or after it (in
# a bundle directory nvidia-smi-apps.csv sorts first).  Every order gives
# the per-process track GPU 0; the later GPU says so in its meta.
q='SELECT t.ref AS gpu, p.pid, count(*) AS samples,
    min(c.value) AS min_bytes, max(c.value) AS max_bytes
    FROM track t JOIN process p ON p.id = t.process_id
    JOIN counter c ON c.track_id = t.id
    WHERE t.kind = '"'gpu-process'"' GROUP BY t.id'
mkdir bundle
cp data/scenario/nvidia-smi-apps.csv data/scenario/nvidia-smi.csv bundle/
for order in "bundle" \
    "data/scenario/nvidia-smi-apps.csv data/scenario/nvidia-smi.csv" \
    "data/scenario/nvidia-smi.csv data/scenario/nvidia-smi-apps.csv"; do
	rm -f trace.db
	echo "# $order"
	trace-import --tz UTC $order 2>&1 | sed 's/source [0-9]*/source N/'
	trace-query -F csv sql "$q" || exit 1
	trace-query -F csv sql "SELECT json_extract(meta, '\$.gpu_from')
	    FROM track WHERE kind = 'gpu-process'" || exit 1
done
# A device CSV that fails after its GPU's first row leaves the earlier
# per-process track as it was (GPU -1): the update is in its transaction.
rm -f trace.db
trace-import --tz UTC data/scenario/nvidia-smi-apps.csv 2>/dev/null || exit 1
head -3 data/scenario/nvidia-smi.csv > bad.csv
sed -n 4p data/scenario/nvidia-smi.csv | sed 's/ 98 %/ abc %/' >> bad.csv
cksum < trace.db > before
trace-import --tz UTC bad.csv
echo "exit $?"
cksum < trace.db | cmp -s before - && echo "store unchanged"
trace-query -F csv sql "SELECT ref FROM track WHERE kind = 'gpu-process'"
