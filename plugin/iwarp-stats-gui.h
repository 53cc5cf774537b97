// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarp-stats-gui.h - the GUI tables of the "iwarp" tap (iwarp-stats-gui.c).
 */
#ifndef IWARP_STATS_GUI_H
#define IWARP_STATS_GUI_H

/* The GUI tables (Statistics > Service Response Time > iWARP ...). */
void iwarp_stats_gui_register(void);

#endif
