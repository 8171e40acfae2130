# The EXAMPLES of trace-align(1), on the real bundle (its Go trace logs
# its clock, so most statements meet an exact anchor).
trace-import -q data/align/real || exit 1
echo '$ trace-align'
trace-align -F csv | cut -d, -f1,7,8
echo '$ trace-align -n -F json'
trace-align -n -F json
echo '$ trace-align --ignore go-log'
trace-align --ignore go-log -F csv | cut -d, -f1,7,11
echo '$ trace-align --offset trace.out=-12.5ms'
trace-align --offset trace.out=-12.5ms -F csv | cut -d, -f1,7,8
echo '$ trace-align --offset trace.out==-329557.372s'
trace-align --offset trace.out==-329557.372s -F csv | cut -d, -f1,7,8
echo '$ trace-align --ignore go-log --pair trace.out:+1.5s=perf.txt.gz:2801.5'
trace-align --ignore go-log --pair trace.out:+1.5s=perf.txt.gz:2801.5 \
    -F csv | cut -d, -f1,7,8
echo '$ trace-align --source-tz Europe/Berlin'
trace-align --source-tz Europe/Berlin -F csv | cut -d, -f1,7,8
echo '$ trace-align --reset'
trace-align --reset -F csv | cut -d, -f1,7,8
