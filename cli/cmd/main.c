// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarpscope: makes iWARP traffic readable. `iwarpscope [COMMAND] [OPTIONS]
 * FILE...` reads captures (or a live interface), runs the command
 * (cmdrun.h) and prints its report. Exit status: 0 ok, 1 --fail-on
 * matched, 2 usage error or unreadable input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
#include "merge.h"
#include "options.h"
#include "outfile.h"
#include "cmdrun.h"
#include "textsafe.h"

/* A one-line error on stderr (names in it escaped: textsafe.h). */
static void error_line(const char *msg)
{
	fputs("iwarpscope: ", stderr);
	text_safe_put(stderr, msg);
	fputc('\n', stderr);
}

/* The first input that cannot be read twice (stdin, a pipe, a FIFO, a
 * device), NULL if all are regular files. */
static const char *read_once_input(const struct inputs *ins)
{
	for (int i = 0; i < ins->nfiles; i++) {
		struct stat sb;
		if (strcmp(ins->files[i], "-") == 0 || stat(ins->files[i], &sb) != 0 ||
		    !S_ISREG(sb.st_mode))
			return ins->files[i];
	}
	return NULL;
}

/* Where the command word "merge" is, if it is the command: the first word
 * that is neither an option nor the value of one of merge's options. */
static int merge_command_at(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		if (strcmp(w, "merge") == 0)
			return i;
		if (w[0] != '-' || strcmp(w, "-") == 0 || strcmp(w, "--") == 0)
			return 0;
		if (!strcmp(w, "-T") || !strcmp(w, "-o") || !strcmp(w, "--format") ||
		    !strcmp(w, "--output"))
			i++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct cmdrun p;
	char err[512] = "";
	int rc;
	/* merge reads statistics, not captures: a command of its own, after
	 * any options (merge_main takes the words around it). */
	int mi = merge_command_at(argc, argv);
	if (mi > 0) {
		char **args = malloc((size_t)argc * sizeof(*args));
		if (!args)
			return 2;
		int n = 0;
		args[n++] = argv[mi];
		for (int i = 1; i < argc; i++)
			if (i != mi)
				args[n++] = argv[i];
		rc = merge_main(n, args);
		free(args);
		return rc;
	}
	rc = options_parse(argc, argv, &o);
	if (rc) {
		options_free(&o);
		return rc == 1 ? 0 : 2;
	}
	if (o.list_rules) {
		doctor_rules_write(stdout, o.format);
		options_free(&o);
		return ferror(stdout) ? 2 : 0;
	}
	if (o.list_ifaces) {
		rc = source_list_interfaces(stdout, err, sizeof(err)) ? 0 : 2;
		if (rc)
			error_line(err);
		options_free(&o);
		return rc;
	}

	static char outbuf[1 << 20];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	/* Patterns and directories to files (rotated sets). */
	struct inputs ins;
	const char *notes[INPUTS_MAX_NOTES];
	if (inputs_expand(o.files, o.nfiles, &ins, err, sizeof(err))) {
		error_line(err);
		options_free(&o);
		return 2;
	}
	for (int i = 0; i < ins.nnotes; i++)
		notes[i] = ins.notes[i];
	/* The report's page: written beside its path and put in place once
	 * complete (outfile.h); a path that cannot be written, or one of the
	 * inputs, fails before anything is read. */
	struct outfile page;
	bool has_page = false;
	if (o.output) {
		if (outfile_open(&page, o.output, ins.files, ins.nfiles, err, sizeof(err))) {
			error_line(err);
			inputs_free(&ins);
			options_free(&o);
			return 2;
		}
		has_page = true;
	}
	struct file_id *ids = calloc((size_t)ins.nfiles + 1, sizeof(*ids));
	struct source_opts so = {
		.files = ins.files,
		.nfiles = ins.nfiles,
		.notes = notes,
		.nnotes = ins.nnotes,
		.iface = o.iface,
		.bpf = o.bpf,
		.snaplen = o.snaplen,
		.progress = o.progress,
		.save = o.save,
		.max_window = o.max_window,
		.ids = ids,
	};
	/* Several files: a first pass finds capture points (points.h). It reads
	 * every file once more, so only regular files: a pipe (`<(cat a)`),
	 * a FIFO or stdin is read once, as one capture point. */
	struct points *pts = NULL;
	const char *once = ins.nfiles > 1 ? read_once_input(&ins) : NULL;
	if (!ids)
		snprintf(err, sizeof(err), "out of memory");
	else if (o.points && once)
		snprintf(err, sizeof(err), "--points reads its files twice: %s cannot be read twice "
			 "(stdin, a pipe or a FIFO): save it to a file first",
			 strcmp(once, "-") == 0 ? "stdin" : once);
	else if (!o.iface && ins.nfiles > 1 && !once)
		pts = points_survey(&so, o.points, err, sizeof(err));
	struct source *src = pts || !err[0] ? source_open(&so, err, sizeof(err)) : NULL;
	if (!src) {
		error_line(err);
		if (has_page)
			outfile_abort(&page);
		points_free(pts);
		free(ids);
		inputs_free(&ins);
		options_free(&o);
		return 2;
	}
	if (pts)
		points_note(pts, stderr);

	if (!cmdrun_init(&p, &o, src, pts, stdout)) {
		error_line("out of memory");
		cmdrun_free(&p);
		if (has_page)
			outfile_abort(&page);
		free(ids);
		inputs_free(&ins);
		options_free(&o);
		return 2;
	}
	cmdrun_read(&p);
	int status = 0;
	/* An input that ended on an error the report cannot hold: no report
	 * (a page is not put in place). */
	if (source_error(p.src)) {
		error_line(source_error(p.src));
		if (has_page)
			outfile_abort(&page);
		has_page = false;
		status = 2;
	} else {
		unsigned found = cmdrun_report(&p, has_page ? page.f : NULL);
		if (o.cmd != CMD_SUMMARY)
			cmdrun_warnings(&p, stderr);
		cmdrun_notes(&p, stderr);
		status = found ? 1 : 0;
	}
	/* Live -w: every packet saved, or exit 2 saying how many were not. */
	if (!source_close_save(p.src, err, sizeof(err))) {
		error_line(err);
		status = 2;
	}
	fflush(stdout);
	if (ferror(stdout)) {
		error_line("error writing the output");
		status = 2;
	}
	if (has_page && outfile_commit(&page, err, sizeof(err))) {
		error_line(err);
		status = 2;
	}
	free(ids);
	cmdrun_free(&p);
	inputs_free(&ins);
	options_free(&o);
	return status;
}
