# An unknown --tz zone (glibc would silently use UTC for it).
trace-import --tz Mars/Olympus_Mons data/nvidia-smi/query-gpu.csv
rc=$?
ls
exit $rc
