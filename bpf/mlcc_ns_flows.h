/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The senders' rate records (struct mlcc_ns_entry): bpf_mlcc
 * (mlcc_cc.bpf.c) makes one for each of its sockets and removes it with
 * the socket; HPCC's law runs into it on each feedback, a Switch-INT
 * taken by the sender role of mlcc_ns.bpf.c (R_NS) or an ACK_E taken by
 * the sockops program of mlcc.bpf.c (HPCC end to end); and bpf_mlcc paces
 * the socket at its rate. A flow of another CC has none: its feedback is
 * dropped. The three objects declare the map; their loaders pin it at
 * one path (mlcc_ns_shared_pin() in mlcc_datapath.h), so that the one
 * that loads later reuses the first one's. A HASH: an LRU holds no
 * bpf_spin_lock; a full one leaves a new socket without a record (TCP's
 * Reno, unpaced). Include hpcc_core.h and mlcc_types.h first.
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

/*
 * A feedback's records (wire form, host order) into the flow's law
 * (3.3's on_switch_int(), HPCC's on an echo): MeasureInflight, then the
 * rate, made the reference once a round (T) has passed since the last.
 * The flow's first starts its law at the line rate (3.3: R_NS = R_line
 * until the first feedback).
 */
static __always_inline void mlcc_ns_take(struct mlcc_ns_entry *e,
					 const u64 wire[MLCC_SWINT_HOPS], u32 nhop,
					 const struct hpcc_params *hp,
					 u32 t_ns, u64 now)
{
	struct hpcc_hop hops[MLCC_SWINT_HOPS] = {};
	bool commit;
	u32 j;

	for (j = 0; j < MLCC_SWINT_HOPS; j++)
		hpcc_hop_unwire(wire[j], &hops[j]);
	bpf_spin_lock(&e->lock);
	if (!e->info.r_line) {
		hpcc_init(&e->ns, hp, hp->r_max);
		e->info.r_line = hp->r_max;
		e->info.r_ns = e->ns.r;
	}
	e->info.taken++;
	e->info.last_ns = now;
	e->info.nhop = nhop;
	for (j = 0; j < MLCC_SWINT_HOPS; j++)
		e->info.hop[j] = wire[j];
	if (hpcc_measure(&e->ns, hops, nhop, t_ns, now) == HPCC_MEASURED) {
		commit = now - e->round_ns >= t_ns;
		e->info.r_ns = hpcc_rate(&e->ns, hp, commit);
		e->info.u = e->ns.u;
		if (commit) {
			e->round_ns = now;
			e->info.commits++;
		}
	}
	bpf_spin_unlock(&e->lock);
}

#endif /* _UNO_MLCC_NS_FLOWS_H */
