// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commands.h - each command's stages (struct cmd_stages, cmdrun.h): the
 * analysis' hooks it sets before the run, the consumers it starts, the
 * writer of its report. Its words (name, help, options, formats) are in
 * cmdlist.h.
 */
#ifndef IWS_CLI_COMMANDS_H
#define IWS_CLI_COMMANDS_H

#include "cmdrun.h"

const struct cmd_stages *command_stages(enum command c);

#endif
