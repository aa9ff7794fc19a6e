/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The senders' near-source records (struct mlcc_ns_entry): bpf_mlcc
 * (mlcc_cc.bpf.c) makes one for each of its sockets and removes it with
 * the socket, the sender role of mlcc_ns.bpf.c runs R_NS's law into it
 * on each Switch-INT, and bpf_mlcc paces the socket at its R_NS. A flow
 * of another CC has none: its Switch-INTs are dropped.
 * Both objects declare the map; their loaders pin it at one path
 * (mlcc_ns_shared_pin() in mlcc_datapath.h), so that the one that loads
 * later reuses the first one's. A HASH: an LRU holds no bpf_spin_lock;
 * a full one leaves a new socket without a record (TCP's Reno, unpaced).
 * Include mlcc_types.h first.
 */
#ifndef _UNO_MLCC_NS_FLOWS_H
#define _UNO_MLCC_NS_FLOWS_H

#define MLCC_NS_MAX_FLOWS	4096

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MLCC_NS_MAX_FLOWS);
	__type(key, struct mlcc_flow4);
	__type(value, struct mlcc_ns_entry);
} mlcc_ns_flows SEC(".maps");

#endif /* _UNO_MLCC_NS_FLOWS_H */
