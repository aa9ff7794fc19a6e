#!/bin/sh
# Runner self-test: runs after fail_timeout and passes only if the runner
# cleaned up after it: no namespace and no process left.
if [ -n "$(ip netns list)" ]; then
	echo "namespaces left behind: $(ip netns list)"
	exit 1
fi
if pgrep -f 'sleep 1000' > /dev/null; then
	echo "processes left behind"
	exit 1
fi
exit 0
