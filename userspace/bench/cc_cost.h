/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cc_cost: the per-ACK entry points the benchmark counts instructions of.
 *
 * Each entry point does, for one ACK, what the kernel adapter's
 * .cong_control does with the core (kernel/tcp_uno.c, kernel/tcp_smartt.c)
 * and nothing else, and is a real, out-of-line function: callgrind's
 * --toggle-collect=<entry> then counts exactly the instructions of one
 * ACK's control law, none of the trace replay around it. The core's inline
 * functions are inlined into the entry point, as into the kernel's
 * .cong_control. The entry point's own overhead (prologue, argument
 * loads, ret) is what the "null" entry measures.
 */
#ifndef _CC_COST_H
#define _CC_COST_H

#include "uno_core.h"
#include "smartt_core.h"
#include "nscc_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What tcp_smartt's .cong_control hands the core on one ACK: the ACK
 * (size rs->acked_sacked x mss, inflight tcp_packets_in_flight() x mss,
 * rtt_us < 0 for no sample) and the bytes it reports lost.
 */
struct bench_smartt_in {
	struct smartt_ack ack;
	u32 lost;		/* rs->losses x mss: a NACK first, if trimming */
};

/* One set of parameters each, read on every ACK like the modules' globals. */
extern struct uno_params bench_uno_params;
extern struct smartt_params bench_smartt_params;

/* Returns the core's events (UNO_EV_*; smartt: nack << 8 | ack action). */
u32 bench_null_ack(void *state, const void *in);
u32 bench_uno_ack(struct uno_state *s, const struct uno_ack *a);
u32 bench_smartt_ack(struct smartt_state *s, const struct bench_smartt_in *a);
u32 bench_nscc_ack(struct smartt_state *s, const struct bench_smartt_in *a);

/* The same plus what the adapters then hand TCP: window in segments, pacing rate. */
u32 bench_uno_tcp_ack(struct uno_state *s, const struct uno_ack *a);
u32 bench_smartt_tcp_ack(struct smartt_state *s,
			 const struct bench_smartt_in *a);

/* Where the _tcp entries leave the segments and rate, so they are computed. */
extern volatile u64 bench_sink;
extern u32 bench_pacing_pct;	/* tcp_uno's pacing_pct */

#ifdef __cplusplus
}
#endif

#endif /* _CC_COST_H */
