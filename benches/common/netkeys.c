// SPDX-License-Identifier: GPL-2.0-only
/*
 * netkeys.c - the network workloads' shared keys: family= as 4 or 6.
 * See netkeys.h.
 */
#include "netkeys.h"

int pb_family_of(int family)
{
	return family ? 6 : 4;
}
