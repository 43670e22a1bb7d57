/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * campaign_state.h - a campaign's state file, DIR/state.json
 * (campaign_state.c): a struct pb_campaign as JSON, saved atomically.
 */
#ifndef PINBENCH_CAMPAIGN_STATE_H
#define PINBENCH_CAMPAIGN_STATE_H

#include <stddef.h>

#include "core/campaign.h"
#include "lib/schema.h"

#define PB_CAMP_SCHEMA		PB_SCHEMA_CAMPAIGN
#define PB_CAMP_STATE_FILE	"state.json"

/* dir/state.json into c: 0, or -1 with err (ENOENT in errno when there is none). */
int pb_camp_load(const char *dir, struct pb_campaign *c, char *err, size_t len);
/* c into dir/state.json (temporary file, fsync, rename): 0, or -1 with err. */
int pb_camp_save(const char *dir, const struct pb_campaign *c, char *err, size_t len);

#endif
