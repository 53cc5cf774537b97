// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iwarpscope: makes iWARP traffic readable. `iwarpscope [COMMAND] [OPTIONS]
 * FILE...` reads captures (or a live interface), runs the command
 * (cmdrun.h) and prints its report. Exit status (enum exit_status): 0 ok,
 * 1 --fail-on matched, 2 usage error or unreadable input, 3 --fail-on
 * matched nothing but could not check everything.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
#include "merge.h"
#include "options.h"
#include "out_doctor.h"
#include "outfile.h"
#include "cmdrun.h"
#include "jobs.h"
#include "commands.h"
#include "findings.h"
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

/* merge reads statistics, not captures: a command of its own, after any
 * options (merge_main takes the words around it, the command word first). */
static int run_merge(int argc, char **argv, int mi)
{
	char **args = malloc((size_t)argc * sizeof(*args));
	if (!args)
		return 2;
	int n = 0;
	args[n++] = argv[mi];
	for (int i = 1; i < argc; i++)
		if (i != mi)
			args[n++] = argv[i];
	int rc = merge_main(n, args);
	free(args);
	return rc;
}

/* What lists and exits (doctor --rules, -D): its exit status; -1: neither. */
static int run_listing(const struct options *o)
{
	char err[512] = "";
	if (o->list_rules) {
		doctor_rules_write(stdout, o->format);
		return ferror(stdout) ? 2 : 0;
	}
	if (o->list_ifaces) {
		int rc = source_list_interfaces(stdout, err, sizeof(err)) ? 0 : 2;
		if (rc)
			error_line(err);
		return rc;
	}
	return -1;
}

/* What a run opens before reading: the inputs, the report's page, the
 * source's settings. */
struct opened {
	struct inputs ins;
	const char *notes[INPUTS_MAX_NOTES];
	struct outfile page;
	bool has_page;
	struct file_id *ids;
	struct source_opts so;
};

/* Patterns and directories to files (rotated sets), and the report's page:
 * written beside its path and put in place once complete (outfile.h); a
 * path that cannot be written, or one of the inputs, fails before anything
 * is read. false: said on stderr, nothing left open. */
static bool open_inputs(struct opened *op, const struct options *o, char *err, size_t len)
{
	if (inputs_expand(o->files, o->nfiles, &op->ins, err, len)) {
		error_line(err);
		return false;
	}
	for (int i = 0; i < op->ins.nnotes; i++)
		op->notes[i] = op->ins.notes[i];
	if (o->output) {
		if (outfile_open(&op->page, o->output, op->ins.files, op->ins.nfiles, err, len)) {
			error_line(err);
			inputs_free(&op->ins);
			return false;
		}
		op->has_page = true;
	}
	return true;
}

/* The source over the inputs and, with several files, the capture points
 * (*pts, NULL: one). NULL: said on stderr (the points freed). */
static struct source *open_source(struct opened *op, const struct options *o, struct points **pts,
				  char *err, size_t len)
{
	op->ids = calloc((size_t)op->ins.nfiles + 1, sizeof(*op->ids));
	op->so = (struct source_opts){
		.files = op->ins.files,
		.nfiles = op->ins.nfiles,
		.notes = op->notes,
		.nnotes = op->ins.nnotes,
		.iface = o->iface,
		.bpf = o->bpf,
		.snaplen = o->snaplen,
		.progress = o->progress,
		.save = o->save,
		.max_window = o->max_window,
		.ids = op->ids,
	};
	/* Several files: a first pass finds capture points (points.h). It reads
	 * every file once more, so only regular files: a pipe (`<(cat a)`),
	 * a FIFO or stdin is read once, as one capture point. */
	*pts = NULL;
	const char *once = op->ins.nfiles > 1 ? read_once_input(&op->ins) : NULL;
	if (!op->ids)
		snprintf(err, len, "out of memory");
	else if (o->points && once)
		snprintf(err, len, "--points reads its files twice: %s cannot be read twice "
			 "(stdin, a pipe or a FIFO): save it to a file first",
			 strcmp(once, "-") == 0 ? "stdin" : once);
	else if (!o->iface && op->ins.nfiles > 1 && !once)
		*pts = points_survey(&op->so, o->points, err, len);
	struct source *src = *pts || !err[0] ? source_open(&op->so, err, len) : NULL;
	if (!src) {
		error_line(err);
		points_free(*pts);
		*pts = NULL;
		return NULL;
	}
	if (*pts)
		points_note(*pts, stderr);
	return src;
}

/* Close what open_inputs and open_source opened (the page put away unless
 * committed). */
static void opened_free(struct opened *op)
{
	if (op->has_page)
		outfile_abort(&op->page);
	free(op->ids);
	inputs_free(&op->ins);
}

/* A --fail-on gate that matched nothing must not pass what it did not
 * check: packets --max-flows kept from the analysis (a QP not analysed may
 * be the one that breaks the rules). Said on stderr; false when everything
 * was checked, there is no gate, or --allow-unanalysed accepts it. */
static bool gate_unchecked(const struct cmdrun *p, const struct options *o)
{
	char why[256];
	if (!(o->fail_on || o->fail_rules || o->fail_severities) || o->allow_unanalysed ||
	    !findings_unchecked(&p->a, why, sizeof(why)))
		return false;
	fprintf(stderr, "iwarpscope: --fail-on found nothing in what it checked, but %s: exit 3 "
			"(a larger --max-flows analyses them; --allow-unanalysed passes without them)\n", why);
	return true;
}

/* The run read: its report (or the input's error), warnings and notes, the
 * saved packets, the output flushed and the page put in place; the exit
 * status. */
static int finish_run(struct cmdrun *p, const struct options *o, struct opened *op)
{
	char err[512] = "";
	int status = 0;
	/* An input that ended on an error the report cannot hold: no report
	 * (a page is not put in place). */
	if (source_error(p->src)) {
		error_line(source_error(p->src));
		if (op->has_page)
			outfile_abort(&op->page);
		op->has_page = false;
		status = 2;
	} else {
		unsigned found = cmdrun_report(p, op->has_page ? op->page.f : NULL);
		/* -q: the warnings stay in the report (JSON capture.warnings) */
		if (!(cmdinfo_of(o->cmd)->flags & CF_OWN_WARNINGS) && !o->quiet)
			cmdrun_warnings(p, stderr);
		if (!o->quiet)
			cmdrun_notes(p, stderr);
		status = found ? EXIT_FOUND : gate_unchecked(p, o) ? EXIT_UNCHECKED : EXIT_OK;
	}
	/* Live -w: every packet saved, or exit 2 saying how many were not. */
	if (!source_close_save(p->src, err, sizeof(err))) {
		error_line(err);
		status = 2;
	}
	fflush(stdout);
	if (ferror(stdout)) {
		error_line("error writing the output");
		status = 2;
	}
	if (op->has_page && outfile_commit(&op->page, err, sizeof(err))) {
		error_line(err);
		status = 2;
	}
	op->has_page = false;
	return status;
}

/* The command over its inputs: the exit status. */
static int run_command(const struct options *o)
{
	static struct cmdrun p;
	static struct opened op;
	static char outbuf[1 << 20];
	char err[512] = "";
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (!open_inputs(&op, o, err, sizeof(err)))
		return 2;
	struct points *pts;
	struct source *src = open_source(&op, o, &pts, err, sizeof(err));
	if (!src) {
		opened_free(&op);
		return 2;
	}
	if (!cmdrun_init(&p, o, command_stages(o->cmd), src, pts, stdout)) {
		error_line("out of memory");
		cmdrun_free(&p);
		opened_free(&op);
		return 2;
	}
	/* -j N reads the input again when the workers' results could differ
	 * from one analysis' (jobs.h): only files can be read twice. */
	p.jobs = !o->has_jobs ? 1 : o->jobs == 0 ? jobs_online() : o->jobs;
	if (read_once_input(&op.ins))
		p.jobs = 1;
	if (!cmdrun_read(&p)) {
		cmdrun_free(&p);
		opened_free(&op);
		struct options one = *o;
		one.has_jobs = false;
		return run_command(&one);
	}
	int status = finish_run(&p, o, &op);
	cmdrun_free(&p);
	opened_free(&op);
	return status;
}

/* Blocks of 1 MiB and more (zstd windows, read buffers) are mapped on
 * their own, so freeing one gives it back at once. glibc would otherwise
 * raise this threshold when the first such block is freed, carve the next
 * ones from the heap, and small allocations between them would keep a freed
 * window resident: the decoders' budget (decomp.h) bounds what they hold,
 * this makes it what the process holds. */
#define MAP_ON_THEIR_OWN (1 << 20)

int main(int argc, char **argv)
{
	static struct options o;
	mallopt(M_MMAP_THRESHOLD, MAP_ON_THEIR_OWN);
	int mi = merge_command_at(argc, argv);
	if (mi > 0)
		return run_merge(argc, argv, mi);
	int rc = options_parse(argc, argv, &o);
	if (rc) {
		options_free(&o);
		return rc == 1 ? 0 : 2;
	}
	rc = run_listing(&o);
	if (rc < 0)
		rc = run_command(&o);
	options_free(&o);
	return rc;
}
