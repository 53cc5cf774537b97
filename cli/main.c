// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarpscope: makes iWARP traffic readable. `iwarpscope [COMMAND] [OPTIONS]
 * FILE...` reads captures (or a live interface), runs the pipeline of the
 * command (pipeline.h) and prints its report. Exit status: 0 ok, 1 --fail-on
 * matched, 2 usage error or unreadable input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "merge.h"
#include "options.h"
#include "pipeline.h"

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
	static struct pipeline p;
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
			fprintf(stderr, "iwarpscope: %s\n", err);
		options_free(&o);
		return rc;
	}

	static char outbuf[1 << 20];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	/* Patterns and directories to files (rotated sets). */
	struct inputs ins;
	const char *notes[INPUTS_MAX_NOTES];
	if (inputs_expand(o.files, o.nfiles, &ins, err, sizeof(err))) {
		fprintf(stderr, "iwarpscope: %s\n", err);
		options_free(&o);
		return 2;
	}
	for (int i = 0; i < ins.nnotes; i++)
		notes[i] = ins.notes[i];
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
	};
	/* Several files: a first pass finds capture points (points.h). */
	struct points *pts = NULL;
	bool has_stdin = false;
	for (int i = 0; i < ins.nfiles; i++)
		has_stdin |= strcmp(ins.files[i], "-") == 0;
	if (o.points && has_stdin)
		snprintf(err, sizeof(err), "--points reads its files twice: not stdin");
	else if (!o.iface && ins.nfiles > 1 && !has_stdin)
		pts = points_survey(&so, o.points, err, sizeof(err));
	struct source *src = pts || !err[0] ? source_open(&so, err, sizeof(err)) : NULL;
	if (!src) {
		fprintf(stderr, "iwarpscope: %s\n", err);
		points_free(pts);
		inputs_free(&ins);
		options_free(&o);
		return 2;
	}
	if (pts)
		points_note(pts, stderr);

	/* The report's page: a path that cannot be written fails at once. */
	FILE *page = NULL;
	if (o.output && !(page = fopen(o.output, "w"))) {
		fprintf(stderr, "iwarpscope: cannot write %s: %s\n", o.output, strerror(errno));
		source_close(src);
		points_free(pts);
		inputs_free(&ins);
		options_free(&o);
		return 2;
	}
	if (!pipeline_init(&p, &o, src, pts, stdout)) {
		fprintf(stderr, "iwarpscope: out of memory\n");
		pipeline_free(&p);
		if (page)
			fclose(page);
		inputs_free(&ins);
		options_free(&o);
		return 2;
	}
	pipeline_run(&p);
	unsigned found = pipeline_report(&p, page);
	if (o.cmd != CMD_SUMMARY)
		pipeline_warnings(&p, stderr);
	pipeline_notes(&p, stderr);
	fflush(stdout);

	int status = found ? 1 : 0;
	if (ferror(stdout) || (page && fclose(page) != 0)) {
		fprintf(stderr, "iwarpscope: error writing the output\n");
		status = 2;
	}
	pipeline_free(&p);
	inputs_free(&ins);
	options_free(&o);
	return status;
}
