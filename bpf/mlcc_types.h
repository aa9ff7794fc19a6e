/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of MLCC's flow maps (mlcc_rx, mlcc_ns_flows, mlcc_pfq), for
 * the BPF programs and for user space, which reads them (the loaders).
 * Include core_types.h and hpcc_core.h first.
 */
#ifndef _UNO_MLCC_TYPES_H
#define _UNO_MLCC_TYPES_H

#include <linux/bpf.h>	/* struct bpf_spin_lock */

#include "uno_mlcc.h"

/* A received flow: what unoctl shows, and R_credit's law on its INT. */
struct mlcc_rx_entry {
	struct mlcc_rx_info info;
	struct hpcc_state rc;
};

/*
 * A sender's flow in the near-source loop: R_NS's law under the lock
 * (the Switch-INTs of a flow may be taken on two CPUs at once, and its CC
 * resets the rate on an RTO), and the time its round began (a commit once
 * per RTT_NS).
 */
struct mlcc_ns_entry {
	struct bpf_spin_lock lock;
	struct mlcc_ns_info info;
	struct hpcc_state ns;
	u64 round_ns;
};

/*
 * DCI_r's queue of a cross-DC flow under the lock: its departures are
 * timed on the CPUs its segments pass, its rate and credit set by its
 * ACKs on others.
 */
struct mlcc_pfq_entry {
	struct bpf_spin_lock lock;
	struct mlcc_pfq_info info;
};

#endif /* _UNO_MLCC_TYPES_H */
