// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_assets.h - the HTML report's page, style and script
 * (cli/report/page.html, report.css, report.js), compiled into the program
 * by embed.cmake so the report needs no file beside the binary.
 */
#ifndef IWS_CLI_REPORT_ASSETS_H
#define IWS_CLI_REPORT_ASSETS_H

extern const char iws_report_page[];
extern const char iws_report_css[];
extern const char iws_report_js[];

#endif
