/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The entropy datapath's interface: what the tc programs of bpf/lb.bpf.c
 * and their loaders (unod, the tests) share. The programs choose each
 * packet's entropy value (EV) by a load-balancing mode and write it on
 * the wire as the UDP source port ev_base + EV (ARCANE's primary mode
 * "U", ../shared/spec/arcane.md section 3.2).
 *
 * On the wire, a 28-byte shim opens the UDP payload of every datagram the
 * datapath handles (arcane.md 3.3): the sending application leaves ev at
 * 0xffff and its own port in reply_port; the egress program writes the
 * EV it chose; the receiver echoes ev and the packet's CE bit in its ACK
 * or NACK, which it sends to reply_port, since the source port it saw
 * is the EV; the ingress program reads the echo.
 */
#ifndef _UAPI_UNO_LB_H
#define _UAPI_UNO_LB_H

#include <linux/types.h>

#define LB_SHIM_MAGIC		0x41524331	/* "ARC1" */
#define LB_SHIM_DATA		1
#define LB_SHIM_ACK		2
#define LB_SHIM_NACK		3
#define LB_SHIM_CE_ECHO		0x01		/* flags, ACK and NACK */
#define LB_SHIM_RETX		0x02		/* flags, DATA */
#define LB_SHIM_EV_NONE		0xffff		/* ev as the application sends it */

struct lb_shim {
	__be32	magic;
	__u8	type;
	__u8	flags;
	__be16	ev;		/* DATA: the EV chosen; ACK, NACK: echoed */
	__be16	reply_port;	/* DATA: where the receiver replies */
	__be16	rsvd;
	__be64	seq;		/* DATA: its sequence; ACK, NACK: echoed */
	__be64	ts_ns;		/* DATA: sender's stamp; ACK, NACK: echoed */
} __attribute__((packed));	/* 28 bytes, seq at 12, as arcane.md 3.3 lays it */

enum lb_mode {
	LB_MODE_ECMP,		/* one random EV for the flow's life */
	LB_MODE_SPRAY,		/* a random EV per packet */
	LB_MODE_SPRAY_RR,	/* EVs round robin */
	LB_MODE_ARCANE,		/* kernel/core/arcane_core.h */
	LB_MODE_FLOWLET,	/* kernel/core/flowlet_core.h */
	LB_MODE_PLB,		/* kernel/core/plb_core.h */
	LB_MODE_PASSTHRU,	/* the port as the application set it */
	__LB_MODE_MAX,
};

#define LB_MAX_EV	4096

/* The lb_cfg map's one value, written by the loader. */
struct lb_cfg {
	__u32	mode;		/* enum lb_mode */
	__u16	num_ev;		/* 1..LB_MAX_EV, default 256 */
	__u16	ev_base;	/* the first port, default 49152 */
	__u8	cache_size;	/* ARCANE: 1..ARCANE_MAX_CACHE, default 8 */
	__u8	write_shim_ev;	/* write the EV into the shim: default 1 */
	__u16	rsvd;
	__u32	bdp_pkts;	/* ARCANE's initial phase; PLB's round */
	__u32	rsvd2;
	__u64	flowlet_gap_ns;	/* FLOWLET */
	__u32	plb_idle_rounds;	/* PLB: 3 */
	__u32	plb_force_rounds;	/* PLB: 12 */
	__u32	plb_thresh_256;		/* PLB: 128 */
	__u32	rsvd3;
};

/* The lb_policy map: which UDP destination ports the datapath handles. */
#define LB_MAX_POLICIES	64

struct lb_policy_key {
	__u8	proto;		/* IPPROTO_UDP */
	__u8	pad;
	__be16	dport;
};

struct lb_policy_val {
	__u32	mode_override;	/* __LB_MODE_MAX: the configured mode */
	__u32	flags;		/* LB_POLICY_REQUIRE_SHIM */
};

#define LB_POLICY_REQUIRE_SHIM	0x1

/* A flow: IPv4 addresses as v4-mapped IPv6. */
struct lb_flow_key {
	__u8	saddr[16];
	__u8	daddr[16];
	__be16	sport;		/* the application's */
	__be16	dport;
	__u8	proto;
	__u8	pad[3];
};

/* The lb_stats per-CPU array. */
enum lb_stat {
	LB_STAT_PKTS_SEEN,	/* egress: UDP datagrams parsed */
	LB_STAT_PKTS_REWRITTEN,
	LB_STAT_PARSE_SKIPS,	/* not IPv4/IPv6 UDP, a fragment, too short */
	LB_STAT_FLOWS_CREATED,
	LB_STAT_FLOW_TABLE_FULL,	/* or no TCP flow's log to be had */
	LB_STAT_ACKS_PARSED,	/* ingress: ACKs and NACKs with a shim */
	LB_STAT_ACKS_UNKNOWN_FLOW,
	LB_STAT_TX_EXPLORE,	/* ARCANE: sends that explored */
	LB_STAT_TX_CACHED,	/* ARCANE: sends from the cache */
	LB_STAT_FB_GOOD,
	LB_STAT_FB_CE,
	LB_STAT_FB_NACK,
	LB_STAT_FB_IGNORED,	/* an echoed EV >= num_ev */
	LB_STAT_PLB_REHASHES,	/* PLB: EVs drawn after congested rounds */
	LB_STAT_TXLOG_ACKED,	/* ARCANE over TCP: logged segments ACKed */
	LB_STAT_TXLOG_WITHHELD,	/* ... resent since they left: EV not recycled */
	LB_STAT_TXLOG_OVERWRITTEN,	/* entries dropped from a full log */
	__LB_STAT_MAX,
};

/*
 * The loaders' tc filters on the clsact egress and ingress: one handle at
 * one priority, so that a loader finds, replaces and removes its own.
 */
#define LB_TC_HANDLE	1
#define LB_TC_PRIO	0x554e		/* "UN" */

#endif /* _UAPI_UNO_LB_H */
