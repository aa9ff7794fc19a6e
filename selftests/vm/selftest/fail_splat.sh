#!/bin/sh
# Runner self-test: a test that exits 0 but leaves a splat in dmesg must
# fail the run (the kernel log line stands in for a real WARN()).
echo "<4>WARNING: CPU: 0 PID: $$ at uno runner self-test" > /dev/kmsg
exit 0
