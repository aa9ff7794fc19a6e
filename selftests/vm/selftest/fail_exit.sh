#!/bin/sh
# Runner self-test: a failing test (ksft exit 1) must fail the run.
echo "failing on purpose"
exit 1
