/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A gateway's reflector, shared by the programs that answer a data packet
 * at a DC's edge with a datagram to its sender: Reflex's pseudo-ACKs
 * (reflex.bpf.c) and MLCC's Switch-INT (mlcc_ns.bpf.c). The data packet
 * is cloned to the LAN port's ingress, made the answer there and sent by
 * the gateway's own route (design notes 2.2; reflex.md 4.4). Include
 * core_bpf.h (or core_types.h) and the UAPI headers of IPv4, TCP, UDP and
 * tc first.
 */
#ifndef _UNO_REFLECTOR_H
#define _UNO_REFLECTOR_H

#define REFL_IP_DF		0x4000
#define REFL_IP_MF_OFFSET	0x3fff
#define REFL_DSCP_EF		0xb8	/* the TOS byte of DSCP 46 */
#define REFL_TTL		64
#ifndef AF_INET
#define AF_INET			2
#endif

/* An IPv4 TCP segment's headers, and how much data it carries. */
struct refl_tcp4 {
	struct iphdr ip;
	struct tcphdr tcp;
	u32 payload;
};

/*
 * A first fragment or an unfragmented one, with the whole TCP header, and
 * whole: a frame cut short of its IP length carries less data than its
 * header says, and is no segment to answer.
 */
static __always_inline bool refl_parse_tcp4(struct __sk_buff *skb,
					    struct refl_tcp4 *p)
{
	u32 ip_len, tcp_len;

	if (skb->protocol != bpf_htons(ETH_P_IP) ||
	    bpf_skb_load_bytes(skb, ETH_HLEN, &p->ip, sizeof(p->ip)) ||
	    p->ip.ihl < 5 || p->ip.protocol != IPPROTO_TCP ||
	    (p->ip.frag_off & bpf_htons(REFL_IP_MF_OFFSET)) ||
	    ETH_HLEN + bpf_ntohs(p->ip.tot_len) > skb->len)
		return false;
	ip_len = p->ip.ihl * 4;
	if (bpf_skb_load_bytes(skb, ETH_HLEN + ip_len, &p->tcp, sizeof(p->tcp)) ||
	    p->tcp.doff < 5)
		return false;
	tcp_len = p->tcp.doff * 4;
	ip_len += tcp_len;
	p->payload = bpf_ntohs(p->ip.tot_len) > ip_len ?
		     bpf_ntohs(p->ip.tot_len) - ip_len : 0;
	return true;
}

/*
 * The IPv4 and UDP headers of an answer of ip_len bytes from saddr to
 * daddr, port to port, at the highest class (EF), without a UDP checksum
 * (RFC 768). False if the IP checksum cannot be computed.
 */
static __always_inline bool refl_ip4_udp(struct iphdr *ip, struct udphdr *udp,
					 __be32 saddr, __be32 daddr,
					 __be16 port, u16 ip_len)
{
	s64 sum;

	__builtin_memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->tos = REFL_DSCP_EF;
	ip->tot_len = bpf_htons(ip_len);
	ip->frag_off = bpf_htons(REFL_IP_DF);
	ip->ttl = REFL_TTL;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = saddr;
	ip->daddr = daddr;
	sum = bpf_csum_diff(NULL, 0, (__be32 *)ip, sizeof(*ip), 0);
	if (sum < 0)
		return false;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ip->check = (u16)~sum;
	udp->source = port;
	udp->dest = port;
	udp->len = bpf_htons(ip_len - sizeof(*ip));
	udp->check = 0;
	return true;
}

#define REFL_UDP_OFF	(ETH_HLEN + sizeof(struct iphdr))
#define REFL_DATA_OFF	(REFL_UDP_OFF + sizeof(struct udphdr))

/*
 * The answer's Ethernet, IPv4 and UDP headers at the start of frame; the
 * MAC addresses are the neighbour's, filled in as it leaves.
 */
static __always_inline void refl_frame_hdrs(u8 *frame, const struct iphdr *ip,
					    const struct udphdr *udp)
{
	__be16 proto = bpf_htons(ETH_P_IP);

	__builtin_memset(frame, 0, ETH_HLEN);
	__builtin_memcpy(frame + ETH_HLEN - sizeof(proto), &proto, sizeof(proto));
	__builtin_memcpy(frame + ETH_HLEN, ip, sizeof(*ip));
	__builtin_memcpy(frame + REFL_UDP_OFF, udp, sizeof(*udp));
}

/*
 * The answer in skb, to daddr through the gateway's route: its next hop
 * and port, with that neighbour's address (returned to the stack, its
 * source would be a martian on the port it came in by). TC_ACT_SHOT, and
 * *routed false, if there is no route.
 */
static __always_inline int refl_send(struct __sk_buff *skb, __be32 daddr,
				     bool *routed)
{
	struct bpf_fib_lookup fib = {};
	struct bpf_redir_neigh nh = {};
	int rc;

	fib.family = AF_INET;
	fib.ipv4_dst = daddr;
	fib.ifindex = skb->ifindex;
	rc = bpf_fib_lookup(skb, &fib, sizeof(fib), BPF_FIB_LOOKUP_OUTPUT);
	*routed = rc == BPF_FIB_LKUP_RET_SUCCESS || rc == BPF_FIB_LKUP_RET_NO_NEIGH;
	if (!*routed)
		return TC_ACT_SHOT;
	nh.nh_family = AF_INET;
	nh.ipv4_nh = fib.ipv4_dst;	/* the next hop, after the lookup */
	return bpf_redirect_neigh(fib.ifindex, &nh, sizeof(nh), 0);
}

#endif /* _UNO_REFLECTOR_H */
