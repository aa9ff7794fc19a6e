/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hand-off of Reflex's near-source samples from the host's tc
 * program (reflex.bpf.c, rfx_fb) to the socket's struct_ops CC
 * (swift_cc.bpf.c, timely_cc.bpf.c): a mailbox in socket storage, which
 * the CC creates for each flow that takes them and which goes with the
 * socket (design notes 2), and the record of each of the CC's flows
 * (struct rfx_flow_info). Both objects declare the maps; their loaders
 * pin them at one path (rfx_shared_pin() in reflex_datapath.h), so that
 * every object that loads later reuses the first one's. Include
 * core_bpf.h or tcp_ca.h, and reflex_core.h, first.
 */
#ifndef _UNO_REFLEX_SK_H
#define _UNO_REFLEX_SK_H

#include "uno_reflex.h"
#include "reflex_types.h"

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct rfx_sk_state);
} rfx_sk SEC(".maps");

#define RFX_MAX_FLOWS	65536

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RFX_MAX_FLOWS);
	__type(key, struct rfx_flow4);
	__type(value, struct rfx_flow_info);
} rfx_flows SEC(".maps");

#endif /* _UNO_REFLEX_SK_H */
