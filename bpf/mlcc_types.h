/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The value of MLCC's mlcc_rx map, for the sockops program and for user
 * space, which reads it (the loader). Include core_types.h and
 * hpcc_core.h first.
 */
#ifndef _UNO_MLCC_TYPES_H
#define _UNO_MLCC_TYPES_H

#include "uno_mlcc.h"

/* A received flow: what unoctl shows, and R_credit's law on its INT. */
struct mlcc_rx_entry {
	struct mlcc_rx_info info;
	struct hpcc_state rc;
};

#endif /* _UNO_MLCC_TYPES_H */
