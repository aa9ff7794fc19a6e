// SPDX-License-Identifier: GPL-2.0
//
// unoperf: flow completion times between network namespaces of one host.
// The command lives in cli.cc, so that the tests run it as it is.
#include "unoperf.h"

int main(int argc, char **argv)
{
	return unoperf::unoperf_main(argc, argv);
}
