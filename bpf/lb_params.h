/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The entropy datapath's configuration (struct lb_cfg, kernel/uapi/uno_lb.h)
 * as the parameters of its laws, for the tc programs (bpf/lb.bpf.c) and
 * for their loaders, which refuse a configuration the programs would not
 * run (userspace/libuno's [[lb]]). Include after the core headers.
 */
#ifndef _UNO_LB_PARAMS_H
#define _UNO_LB_PARAMS_H

#include "uno_lb.h"
#include "arcane_core.h"
#include "flowlet_core.h"
#include "plb_core.h"

struct lb_params {
	struct arcane_params arcane;
	struct flowlet_params flowlet;
	struct plb_params plb;
};

static __always_inline void lb_params_of(const struct lb_cfg *cfg,
					 struct lb_params *lp)
{
	lp->arcane.num_ev = cfg->num_ev;
	lp->arcane.cache_size = cfg->cache_size;
	lp->arcane.bdp_pkts = cfg->bdp_pkts;
	lp->flowlet.gap_ns = cfg->flowlet_gap_ns;
	lp->flowlet.num_ev = cfg->num_ev;
	lp->plb.num_ev = cfg->num_ev;
	lp->plb.round_acks = cfg->bdp_pkts;
	lp->plb.cong_thresh = cfg->plb_thresh_256;
	lp->plb.idle_rehash_rounds = cfg->plb_idle_rounds;
	lp->plb.rehash_rounds = cfg->plb_force_rounds;
}

/*
 * What the loader must have written before the datapath rewrites: every
 * law's parameters, and ports ev_base .. ev_base + num_ev - 1 that are
 * ports (num_ev is at most LB_MAX_EV, ARCANE_MAX_NUM_EV).
 */
static __always_inline bool lb_params_valid(const struct lb_cfg *cfg,
					    const struct lb_params *lp)
{
	return cfg->ev_base && (u32)cfg->ev_base + cfg->num_ev <= 65536 &&
	       arcane_params_valid(&lp->arcane) &&
	       flowlet_params_valid(&lp->flowlet) &&
	       plb_params_valid(&lp->plb);
}

#endif /* _UNO_LB_PARAMS_H */
