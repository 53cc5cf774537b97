// SPDX-License-Identifier: GPL-2.0-or-later
/* iwarp-stats-doctor.h - `tshark -z iwarp,doctor` (iwarp-stats-doctor.c). */
#ifndef IWARPSCOPE_IWARP_STATS_DOCTOR_H
#define IWARPSCOPE_IWARP_STATS_DOCTOR_H

void iwarp_stats_doctor_register(void);

#endif
