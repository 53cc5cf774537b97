// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out_doctor.h - the interop doctor's writer (out_doctor.c): its findings,
 * per QP, and the rule catalogue.
 */
#ifndef IWS_CLI_OUT_DOCTOR_H
#define IWS_CLI_OUT_DOCTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iwarpscope/doctor.h"
#include "outopts.h"
#include "outreport.h"

void doctor_write(FILE *f, const struct report *r);
/* doctor_findings (findings.h) gives a QP's findings. */
/* Does a finding match --fail-on's rule ids or severities? */
bool doctor_fails(const struct report *r);
/* Over the QPs reported: findings (rule and direction) per severity, and
 * how many QPs have any. */
void doctor_counts(const struct report *r, uint64_t by_sev[3], uint32_t *qps_with);
/* The rule catalogue (doctor --rules), as text, JSON or JSON lines. */
void doctor_rules_write(FILE *f, enum out_format fmt);

#endif
