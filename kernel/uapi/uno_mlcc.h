/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MLCC's wire format (../shared/spec/mlcc.md 3.8): the TCP options that
 * carry INT hop records and credits, shared by the switch ports that
 * stamp them (sch_phantom's INT mode), the sockops program that reserves
 * and reads them (bpf/mlcc.bpf.c) and their tests.
 *
 * One experimental option kind (RFC 6994, kind 253, ExID "ML"), its type
 * in byte 4. TCP timestamps must be off on an MLCC sender, so that the
 * 36 bytes of the data option fit in the 40 of TCP's option space.
 */
#ifndef _UAPI_UNO_MLCC_H
#define _UAPI_UNO_MLCC_H

#include <linux/types.h>

#define MLCC_OPT_KIND		253
#define MLCC_OPT_EXID		0x4d4c		/* "ML" */
#define MLCC_VERSION		1
#define MLCC_TYPE_DATA		0
#define MLCC_TYPE_ACK_X		1		/* cross-DC ACK: credit, rates */
#define MLCC_TYPE_ACK_E		2		/* intra-DC ACK: INT echo */
#define MLCC_TYPE_SWINT		3		/* DCI_s's Switch-INT datagram */

/* Byte 4 of every MLCC option: ver:2 | type:2 | flags:4. */
#define MLCC_VTF(type, flags)	(MLCC_VERSION << 6 | (type) << 4 | (flags))
#define MLCC_VTF_VER(vtf)	((vtf) >> 6)
#define MLCC_VTF_TYPE(vtf)	(((vtf) >> 4) & 3)
#define MLCC_F_CROSS		0x08	/* X: the flow crosses DCs */
#define MLCC_F_OVERFLOW		0x04	/* O: a port found no free slot */
#define MLCC_F_DCI_R		0x02	/* D: c_d and q_c are DCI_r's */

#define MLCC_DATA_HOPS		3

/*
 * The data option, in every data segment of an MLCC flow: the sender
 * writes it empty, each switch port pushes its record (an hpcc_hop_wire()
 * value, kernel/core/hpcc_core.h) at hop[nhop] on dequeue, DCI_r sets
 * c_d and q_c.
 */
struct mlcc_opt_data {
	__u8	kind;		/* MLCC_OPT_KIND */
	__u8	len;		/* sizeof(struct mlcc_opt_data) */
	__be16	exid;		/* MLCC_OPT_EXID */
	__u8	vtf;		/* MLCC_VTF(MLCC_TYPE_DATA, X | O) */
	__u8	nhop;		/* records, in the high 4 bits */
	__u8	c_d;		/* DCI_r's credit; 0: none */
	__u8	rsvd;
	__be32	q_c;		/* the flow's PFQ backlog at DCI_r, bytes */
	__be64	hop[MLCC_DATA_HOPS];
} __attribute__((packed));	/* 36 bytes */

#define MLCC_OPT_DATA_LEN	36

/*
 * The INT echo (ACK_E), in each pure ACK of a receiver when HPCC runs end
 * to end (mlcc_cfg.hpcc_line_rate): the records of the last data option the
 * receiver took, for the sender's law (spec 3.6, 7.16: intra-DC flows'
 * CC, and the HPCC baseline). An ACK whose SACK blocks leave no room for
 * it goes without; the next carries the records again.
 */
struct mlcc_opt_ack_e {
	__u8	kind;		/* MLCC_OPT_KIND */
	__u8	len;		/* sizeof(struct mlcc_opt_ack_e) */
	__be16	exid;		/* MLCC_OPT_EXID */
	__u8	vtf;		/* MLCC_VTF(MLCC_TYPE_ACK_E, 0) */
	__u8	nhop;		/* records, 1..MLCC_DATA_HOPS */
	__u16	rsvd;
	__be64	hop[MLCC_DATA_HOPS]; /* the data option's, as they came */
} __attribute__((packed));	/* 32 bytes */

#define MLCC_OPT_ACK_E_LEN	32

/*
 * The cross-DC ACK (ACK_X), in each pure ACK of a receiver's flow that
 * DCI_r stamps (MLCC_F_DCI_R) when the credit loop runs (mlcc_cfg.
 * credit_line_rate; spec 3.4, 3.5): its credit C_R and R_credit, which
 * DCI_r applies to the flow's queue, and R_DQM_bar, which the sender
 * paces at (Eq. 10). Rates in kbit/s.
 */
struct mlcc_opt_ack_x {
	__u8	kind;		/* MLCC_OPT_KIND */
	__u8	len;		/* sizeof(struct mlcc_opt_ack_x) */
	__be16	exid;		/* MLCC_OPT_EXID */
	__u8	vtf;		/* MLCC_VTF(MLCC_TYPE_ACK_X, 0) */
	__u8	c_r;		/* the receiver's credit, 1..255 */
	__u16	rsvd;
	__be32	r_credit;	/* kbit/s */
	__be32	r_dqm_bar;	/* kbit/s */
} __attribute__((packed));	/* 16 bytes */

#define MLCC_OPT_ACK_X_LEN	16

/*
 * The sockops program (bpf/mlcc.bpf.c), attached to a cgroup: its
 * sockets that connect to the remote prefix send the data option on every
 * data segment (TCP timestamps off, or it does not fit); its accepted
 * sockets read the option of each data segment they receive and run
 * R_credit's law on its records (kernel/core/hpcc_core.h, T = rtt_d_ns).
 *
 * With hpcc_line_rate set, HPCC runs end to end on the same INT: accepted
 * sockets echo their flow's last records in each pure ACK (ACK_E), and
 * the senders take each echo into their flow's law (R_line =
 * hpcc_line_rate, T the flow's base RTT, which bpf_mlcc keeps in its
 * record), whose rate bpf_mlcc paces at.
 *
 * With credit_line_rate set, the credit loop runs (spec 3.4, 3.5):
 * accepted sockets run Algorithm 1 and DQM (kernel/core/mlcc_core.h) on
 * each segment DCI_r stamped, with R_init = R_max = credit_line_rate,
 * RTT_D = rtt_d_ns, RTT_C = rtt_c_ns, theta and D_t, and carry the result
 * in each pure ACK (ACK_X); senders take R_DQM_bar into their flow's
 * record, which bpf_mlcc paces at min(R_NS, R_DQM_bar).
 */
struct mlcc_cfg {
	__be32	remote_addr;	/* the senders' remote prefix; len 0: all */
	__u32	remote_len;
	__u32	rtt_d_ns;	/* the receiver's loop, T of its law */
	__u32	pad;
	__u64	hpcc_line_rate;	/* HPCC end to end: R_line, bytes/s; 0: off */
	__u64	credit_line_rate; /* the credit loop: bytes/s; 0: off */
	__u32	rtt_c_ns;	/* end-to-end base RTT (Eq. 1, 3, 9) */
	__u32	theta_ns;	/* Eq. 5 */
	__u32	d_t_ns;		/* Eq. 5: DCI_r's target queueing delay */
	__u32	pad2;
};

/* A received flow, in the data's direction, network order. */
struct mlcc_flow4 {
	__be32	saddr;
	__be32	daddr;
	__be16	sport;
	__be16	dport;
};

/* What a receiver saw of a flow's INT (the mlcc_rx map). */
struct mlcc_rx_info {
	__u64	segs;			/* data segments */
	__u64	opts;			/* ... with the data option */
	__u64	nhop[MLCC_DATA_HOPS + 1]; /* ... by the records they carried */
	__u64	overflow;		/* ... flagged O */
	__u64	hop[MLCC_DATA_HOPS];	/* the last option's records, wire form */
	__u32	u;			/* HPCC's U on them, Q16.16 */
	__u32	last_nhop;		/* records in the last option */
	/* the credit loop, on the segments DCI_r stamped */
	__u64	dci_segs;		/* ... taken into Algorithm 1 */
	__u64	rounds;			/* credit rounds closed */
	__u64	r_credit;		/* bytes/s */
	__u64	r_dqm;			/* Eq. 5, bytes/s */
	__u64	r_dqm_bar;		/* Eq. 9, bytes/s: what the ACKs carry */
	__u64	q_c;			/* the last Q_c, bytes */
	__u32	c_r;			/* credit; 0: the loop has not started */
	__u32	c_d;			/* the last C_D */
};

/* Counters, per CPU, in mlcc_stats. */
enum mlcc_stat {
	MLCC_STAT_OPT_WRITTEN,	/* sender: data options written */
	MLCC_STAT_OPT_NO_ROOM,	/* ... with no room left for one */
	MLCC_STAT_RX_SEGS,	/* receiver: data segments parsed */
	MLCC_STAT_RX_FLOWS_FULL, /* ... of a flow the full table could not hold */
	MLCC_STAT_ECHO_WRITTEN,	/* receiver: ACK_E written into an ACK */
	MLCC_STAT_ECHO_NO_ROOM,	/* ... with no room left for one */
	MLCC_STAT_ECHO_TAKEN,	/* sender: ACK_E into its flow's law */
	MLCC_STAT_ECHO_NO_FLOW,	/* ... of a socket without a record: ignored */
	MLCC_STAT_ECHO_NO_RTT,	/* ... before bpf_mlcc knew its base RTT: ignored */
	MLCC_STAT_ECHO_MALFORMED, /* ... with no record or too many: ignored */
	MLCC_STAT_CREDIT_SEGS,	/* receiver: DCI_r's segments into Algorithm 1 */
	MLCC_STAT_CREDIT_ROUNDS, /* ... that closed a credit round */
	MLCC_STAT_CREDIT_NO_STATE, /* ... of a socket with no room for its state */
	MLCC_STAT_ACK_X_WRITTEN, /* receiver: ACK_X written into an ACK */
	MLCC_STAT_ACK_X_NO_ROOM, /* ... with no room left for one */
	MLCC_STAT_ACK_X_TAKEN,	/* sender: R_DQM_bar into its flow's record */
	MLCC_STAT_ACK_X_NO_FLOW, /* ... of a socket without a record: ignored */
	MLCC_STAT_ACK_X_MALFORMED, /* ... with a zero rate or credit: ignored */
	__MLCC_STAT_MAX,
};

/*
 * The near-source loop (L1, spec 3.3): DCI_s answers each cross-DC data
 * segment that carries records with a Switch-INT datagram to its sender
 * (UDP, to and from MLCC_SWINT_PORT, DSCP EF) and clears the records
 * before the WAN; the sender's host program runs R_NS's law on them.
 */
#define MLCC_SWINT_PORT		0x4d4c		/* 19788 */
#define MLCC_SWINT_HOPS		4
/* skb->mark of a data segment's clone on its way to be made a Switch-INT */
#define MLCC_SWINT_MARK		0x4d4c0000
#define MLCC_SWINT_MARK_MASK	0xffff0000

struct mlcc_swint {
	__be16	magic;		/* MLCC_OPT_EXID */
	__u8	vtf;		/* MLCC_VTF(MLCC_TYPE_SWINT, 0) */
	__u8	nhop;		/* records, 1..MLCC_SWINT_HOPS */
	__be32	saddr;		/* the data segment's flow */
	__be32	daddr;
	__be16	sport;
	__be16	dport;
	__be32	seq_end;	/* its sequence + payload */
	__be32	ts_dci;		/* DCI_s's clock at the segment, ns, low 32 bits */
	__be64	hop[MLCC_SWINT_HOPS]; /* the option's records, wire form */
} __attribute__((packed));	/* 56 bytes */

/* The DCIs' and the senders' tc roles, each one load of mlcc_ns.bpf.c. */
enum mlcc_ns_role {
	MLCC_NS_ROLE_DCI,	/* DCI_s: Switch-INTs out, records cleared */
	MLCC_NS_ROLE_SENDER,	/* a sender: Switch-INTs into R_NS */
	MLCC_NS_ROLE_DCI_R,	/* DCI_r: per-flow queues at R_credit */
	__MLCC_NS_ROLE_MAX,
};

/*
 * A role's settings (bpf/mlcc_ns.bpf.c), one per namespace and role:
 * DCI_s's LAN port and the Switch-INT's source address; a sender's law
 * (R_line, and T = RTT_NS, its round trip to DCI_s); DCI_r's R_init, a
 * new flow's queue rate and the bound of every credit.
 */
struct mlcc_ns_cfg {
	__u32	lan_ifindex;	/* DCI_s */
	__be32	lan_addr;	/* DCI_s */
	__u64	line_rate;	/* sender: bytes/s; DCI_r: R_init */
	__u32	rtt_ns_ns;	/* sender */
	__u32	pad;
};

/*
 * A sender's record of one of its flows (mlcc_ns_flows): made by bpf_mlcc
 * for each of its sockets, filled by the sender role from Switch-INTs
 * (R_NS) or by the sockops program from ACK_E echoes (HPCC end to end).
 */
struct mlcc_ns_info {
	__u64	taken;			/* feedbacks taken */
	__u64	commits;		/* ... that ended a round */
	__u64	r_ns;			/* R_NS, bytes/s */
	__u64	r_line;			/* the law's R_line, bytes/s; 0: none yet */
	__u64	last_ns;		/* host clock at the last */
	__u64	hop[MLCC_SWINT_HOPS];	/* its records, wire form */
	__u32	u;			/* HPCC's U, Q16.16 */
	__u32	nhop;
	__u32	base_rtt_us;		/* TCP's min RTT (bpf_mlcc): T of the echo's law */
	__u32	pad;
	__u64	r_dqm_bar;		/* the last ACK_X's, bytes/s; 0: none */
};

/*
 * DCI_r's queue of one cross-DC flow (mlcc_pfq, keyed by the data's
 * mlcc_flow4), drained at the rate the receiver advertised last.
 */
struct mlcc_pfq_info {
	__u64	rate;			/* R_credit, bytes/s */
	__u64	next_tx_ns;		/* its next departure, host clock */
	__u64	pkts;			/* segments stamped */
	__u64	bytes;
	__u64	acks;			/* ACK_X taken */
	__u64	q_c;			/* the backlog stamped last, bytes */
	__u32	c_d;			/* the credit learnt last; 0: none */
	__u32	pad;
};

/* The near-source roles' counters, per CPU, in mlcc_ns_stats. */
enum mlcc_ns_stat {
	MLCC_NS_STAT_DCI_DATA,		/* DCI_s: segments with records, to the WAN */
	MLCC_NS_STAT_DCI_CLONE_ERR,	/* ... not cloned (or GSO: not answered) */
	MLCC_NS_STAT_DCI_CLEARED,	/* ... their records cleared */
	MLCC_NS_STAT_SWINT_BUILT,	/* ... a Switch-INT sent */
	MLCC_NS_STAT_SWINT_BUILD_ERR,
	MLCC_NS_STAT_SWINT_NO_ROUTE,
	MLCC_NS_STAT_SWINT_TAKEN,	/* sender: into a flow's law */
	MLCC_NS_STAT_SWINT_NO_FLOW,	/* ... of no flow of bpf_mlcc here: dropped */
	MLCC_NS_STAT_SWINT_MALFORMED,	/* ... from a DCI, but wrong: dropped */
	MLCC_NS_STAT_SWINT_FOREIGN,	/* ... from no known DCI: the stack's */
	MLCC_NS_STAT_PFQ_DATA,		/* DCI_r: segments stamped and timed */
	MLCC_NS_STAT_PFQ_DROPS,		/* ... dropped: their queue held a second */
	MLCC_NS_STAT_PFQ_REWRITE_ERR,	/* ... whose option could not be stamped */
	MLCC_NS_STAT_PFQ_FULL,		/* ... of a flow the full table could not hold */
	MLCC_NS_STAT_PFQ_CLOSED,	/* ... queues freed on a FIN or RST */
	MLCC_NS_STAT_PFQ_ACK_X,		/* ACK_X applied to a queue */
	MLCC_NS_STAT_PFQ_ACK_NO_FLOW,	/* ... of no queue here: ignored */
	MLCC_NS_STAT_PFQ_ACK_MALFORMED,	/* ... with a zero rate or credit: ignored */
	__MLCC_NS_STAT_MAX,
};

#endif /* _UAPI_UNO_MLCC_H */
