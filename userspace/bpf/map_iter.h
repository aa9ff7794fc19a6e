// SPDX-License-Identifier: GPL-2.0
//
// Every element of a pinned hash map, for the loaders' status readers.
#pragma once

#include <bpf/bpf.h>

namespace uno {

// f(key, value) for each element of the map fd (keys K, values V) that is
// still there when read.
template <typename K, typename V, typename F>
void bpf_map_for_each(int fd, F f)
{
	K key, next;
	V val;
	const K *prev = nullptr;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &val))
			f(key, val);
	}
}

} // namespace uno
