// SPDX-License-Identifier: GPL-2.0
/*
 * cc_cost: the per-ACK entry points (cc_cost.h). C, built like a kernel
 * object (-O2, no SSE, no red zone; see CMakeLists.txt), so the core
 * headers compile here as they do in the modules. noipa/noinline keeps
 * every entry point a single, unspecialised function for callgrind to
 * toggle on: the parameters are globals the compiler cannot fold, as the
 * modules' __read_mostly parameters are.
 */
#include "cc_cost.h"

#if defined(__clang__)
#define BENCH_ENTRY noinline __attribute__((used))
#else
#define BENCH_ENTRY __attribute__((noipa, used))
#endif

struct uno_params bench_uno_params = UNO_PARAMS_INIT;
struct smartt_params bench_smartt_params = SMARTT_PARAMS_INIT;
volatile u64 bench_sink;
u32 bench_pacing_pct = 100;

BENCH_ENTRY u32 bench_null_ack(void *state, const void *in)
{
	(void)state;
	(void)in;
	return 0;
}

/* tcp_uno_cong_control(): the ack is built by the caller, then the core. */
BENCH_ENTRY u32 bench_uno_ack(struct uno_state *s, const struct uno_ack *a)
{
	return uno_on_ack(s, &bench_uno_params, a);
}

/*
 * tcp_smartt_cong_control(): a NACK for the lost bytes first, then the
 * ACK, with the law the flow runs: SMaRTT's or NSCC's (tcp_smartt_nscc()).
 */
#define SMARTT_CONG_CONTROL(law)					\
static noinline u32						\
law##_nack_ack(struct smartt_state *s, const struct bench_smartt_in *a) \
{									\
	const struct smartt_params *p = &bench_smartt_params;		\
	u32 ev = (u32)law##_on_nack(s, p, a->ack.now, a->lost,		\
				    a->ack.inflight) << 8;		\
									\
	if (a->ack.size)						\
		ev |= (u32)law##_on_ack(s, p, &a->ack);			\
	return ev;							\
}									\
									\
/*									\
 * ... an ACK that reports no loss, the usual one, without the NACK's	\
 * frame, inlined into its entry point as into the adapter's		\
 * .cong_control							\
 */									\
static __always_inline u32 law##_cong_control(struct smartt_state *s,	\
					      const struct bench_smartt_in *a) \
{									\
	const struct smartt_params *p = &bench_smartt_params;		\
									\
	if (a->lost && p->trimming)					\
		return law##_nack_ack(s, a);				\
	if (!a->ack.size)						\
		return 0;						\
	return law##_on_ack(s, p, &a->ack);				\
}

SMARTT_CONG_CONTROL(smartt)
SMARTT_CONG_CONTROL(nscc)

BENCH_ENTRY u32 bench_smartt_ack(struct smartt_state *s,
				 const struct bench_smartt_in *a)
{
	return smartt_cong_control(s, a);
}

BENCH_ENTRY u32 bench_nscc_ack(struct smartt_state *s,
			       const struct bench_smartt_in *a)
{
	return nscc_cong_control(s, a);
}

/* ... plus tcp_uno_apply(): uno_cwnd_segs() and uno_pacing_rate() x pct. */
BENCH_ENTRY u32 bench_uno_tcp_ack(struct uno_state *s, const struct uno_ack *a)
{
	u32 ev = uno_on_ack(s, &bench_uno_params, a);
	u64 rate = div_u64(uno_pacing_rate(s) * bench_pacing_pct, 100);

	bench_sink = uno_cwnd_segs(s, &bench_uno_params, a->mss) + rate;
	return ev;
}

/*
 * ... plus tcp_smartt_apply() (cwnd / mss, smartt_pacing_rate()); the MSS
 * is the trace's, so the adapter's MSS-change check never fires.
 */
BENCH_ENTRY u32 bench_smartt_tcp_ack(struct smartt_state *s,
				     const struct bench_smartt_in *a)
{
	u32 ev = smartt_cong_control(s, a);

	if (s->cwnd)
		bench_sink = s->cwnd / (s->mtu ? s->mtu : 1) +
			     smartt_pacing_rate(s, &bench_smartt_params);
	return ev;
}
