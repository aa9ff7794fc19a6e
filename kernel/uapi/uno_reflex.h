/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Reflex's datapath interface: what the tc programs of bpf/reflex.bpf.c,
 * the struct_ops CCs that take their samples (bpf/swift_cc.bpf.c,
 * bpf/timely_cc.bpf.c) and their loaders share (../shared/spec/reflex.md
 * 4.3 and 4.4).
 *
 * Three roles, each a load of the one object on its own devices:
 *
 *   stamp    tc ingress on a leaf's host-facing port: the IP-ID stamp,
 *            the low 16 bits of CLOCK_MONOTONIC >> k, on every IPv4 TCP
 *            segment with data and DF (4.3: the wire's transmit time);
 *   gateway  NSF (2.3) at a DC's border: tc egress on each WAN port runs
 *            the per-flow machine on the stamp's age and clones a data
 *            packet to answer; tc ingress on the LAN port turns the clone
 *            into a pseudo-ACK and sends it to the data's sender;
 *   host     tc ingress on a sender's device: a pseudo-ACK from a known
 *            gateway is checked (2.5) and handed to the socket's CC
 *            through socket storage, and never reaches the stack.
 */
#ifndef _UAPI_UNO_REFLEX_H
#define _UAPI_UNO_REFLEX_H

#include <linux/types.h>

#define RFX_MAGIC		0x5246		/* "RF" */
#define RFX_VERSION		1
#define RFX_TYPE_NSF		1
#define RFX_F_NSF		0x01		/* not an end-to-end ACK */
#define RFX_F_COOLING		0x02		/* sent while COOLING */
#define RFX_F_FIRST		0x04		/* opens an episode */
#define RFX_DEF_PORT		9797
/* A clone to build: "RF" and the low 16 bits of its pseudo-ACK's fb_seq */
#define RFX_PACK_MARK		0x52460000
#define RFX_PACK_MARK_MASK	0xffff0000

/*
 * The pseudo-ACK's UDP payload, network order (4.4): the data packet's
 * flow key (its direction), the stamp it carried echoed bit-exact, and
 * what the gateway's machine said when it answered (2.4).
 */
struct rfx_fb {
	__be16	magic;
	__u8	version;
	__u8	type;
	__u8	flags;		/* RFX_F_* */
	__u8	k;		/* the stamp's unit, 2^k ns */
	__be16	echo_ts16;	/* the data packet's IP ID */
	__be32	saddr;		/* the data packet's addresses and ports */
	__be32	daddr;
	__be16	sport;
	__be16	dport;
	__be32	data_seq;	/* its TCP sequence number */
	__be32	t_src_ns;	/* the gateway's T_src, saturating */
	__be32	fb_seq;		/* the flow's pseudo-ACKs, from 1 */
	__be16	covered_pkts;	/* data packets it stands for, saturating */
	__be16	rsvd;
	__be32	echo_ts32;	/* TSval mode; 0 with the IP-ID stamp */
	__be64	gw_time_ns;	/* the gateway's clock when it answered */
} __attribute__((packed));	/* 48 bytes */

/* The data direction's flow key, network order. */
struct rfx_flow4 {
	__be32	saddr;
	__be32	daddr;
	__be16	sport;
	__be16	dport;
};

enum rfx_role {
	RFX_ROLE_STAMP,
	RFX_ROLE_GATEWAY,
	RFX_ROLE_HOST,
	__RFX_ROLE_MAX,
};

/* The rfx_cfg map's one value, written by the loader. */
struct rfx_cfg {
	__u64	t_src_thresh_ns;	/* gateway: NSF's parameters (2.2) */
	__u64	t_interval_ns;
	__u64	t_idle_gc_ns;
	__u32	n_cool;
	__u32	cool_unit;		/* NSF_COOL_* */
	__u32	lan_ifindex;		/* gateway: where pseudo-ACKs leave */
	__be32	lan_addr;		/* gateway: their source address */
	__u16	port;			/* gateway, host: their UDP port */
	__u8	k;			/* all: the stamp's unit, 2^k ns */
	__u8	emit;			/* gateway: 0 measures, answers none */
	__u32	n_prefixes;		/* gateway: in nsf_prefixes; 0: all */
};

/*
 * A gateway's source prefixes (nsf_prefixes, an LPM trie): the hosts
 * whose segments the stamp writes. Another host's IP ID is no stamp
 * (Linux counts it per socket), its "age" noise: NSF leaves it alone.
 */
#define RFX_MAX_PREFIXES	64

struct rfx_prefix4 {
	__u32	prefixlen;
	__be32	addr;
};

/* Counters, per CPU, in rfx_stats. */
enum rfx_stat {
	RFX_STAT_STAMPED,	/* stamp: segments stamped */
	RFX_STAT_NSF_DATA,	/* gateway: data packets through NSF */
	RFX_STAT_NSF_FLOWS_FULL, /* ... of a flow the full table could not hold */
	RFX_STAT_NSF_PACKS,	/* ... answered by a pseudo-ACK */
	RFX_STAT_NSF_EPISODES,	/* ... that opened an episode */
	RFX_STAT_NSF_CLONE_ERR,	/* clones the kernel refused */
	RFX_STAT_NSF_BUILT,	/* pseudo-ACKs sent toward their sender */
	RFX_STAT_NSF_BUILD_ERR,	/* clones that could not be made one */
	RFX_STAT_NSF_NO_ROUTE,	/* pseudo-ACKs with no route to their sender */
	RFX_STAT_NSF_OVERRUN,	/* clones built too late: their answer gone */
	RFX_STAT_FB_ACCEPTED,	/* host: samples handed to a CC */
	RFX_STAT_FB_STALE,	/* fb_seq not after the flow's last */
	RFX_STAT_FB_BAD_RTT,	/* an echo whose age is impossible */
	RFX_STAT_FB_NO_FLOW,	/* no socket, or not one taking samples */
	RFX_STAT_FB_MALFORMED,	/* from a gateway, not a pseudo-ACK */
	RFX_STAT_FB_FOREIGN,	/* to the port, from no known gateway */
	__RFX_STAT_MAX,
};

/*
 * What a struct_ops CC with Reflex on records of each of its flows, in
 * the rfx_flows map (key struct rfx_flow4), until the socket closes.
 * A flow takes near-source samples (reflex = 1) if its handshake RTT is
 * above the CC's reflex_inter_rtt_us; then none from its own ACKs.
 */
struct rfx_flow_info {
	__u64	first_cut_ns;	/* the law's first lowering of the rate */
	__u64	rate_Bps;	/* the pacing rate the law last set */
	__u32	cwnd;		/* the window it last set, packets */
	__u32	cuts;		/* samples that lowered the rate */
	__u32	samples_src;	/* near-source samples applied */
	__u32	samples_e2e;	/* end-to-end samples applied */
	__u32	fb_accepted;	/* pseudo-ACKs the host accepted */
	__u32	fb_stale;
	__u32	fb_bad_rtt;
	__u8	reflex;
	__u8	rsvd[3];
	__u64	first_fb_ns;	/* the first pseudo-ACK the host accepted */
	/*
	 * The gateway's clock (gw_time_ns) in the latest accepted pseudo-ACK
	 * that opened an episode (RFX_F_FIRST: the flow left SILENT), when
	 * the gateway saw that episode's first congested packet; comparable
	 * with the host's times only where the two share a clock (network
	 * namespaces of one machine, as the tests are).
	 */
	__u64	episode_ns;
	/*
	 * The control loop the first cut closed: from the episode_ns it
	 * found to the coming of the pseudo-ACK whose sample made the cut;
	 * 0 if it found none before it (an end-to-end flow, or an episode
	 * whose opening pseudo-ACK was lost or stale).
	 */
	__u64	loop_ns;
	/*
	 * How long that pseudo-ACK waited for the CC (first_cut_ns less its
	 * coming): the CC takes samples before the sender's next transmit
	 * or on its next ACK, so a sender with nothing to send holds them.
	 */
	__u64	cut_wait_ns;
};

#endif /* _UAPI_UNO_REFLEX_H */
