#!/bin/sh
# Runner self-test: a test that outlives its timeout must be killed, fail
# the run, and leave nothing behind (its namespace and child process).
# uno-timeout: 5
ip netns add uno-selftest-leftover
ip netns exec uno-selftest-leftover sleep 1000 &
sleep 1000
