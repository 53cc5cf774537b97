// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON reader and `iwarpscope merge` (issue 17 item 6) on arbitrary
 * bytes: the input is parsed; when it is JSON it is merged with itself, as
 * JSON and as the text tables. Refusals are fine; crashes, leaks and
 * undefined behaviour are not.
 */
#include <stdint.h>
#include <stdio.h>

#include "jsonr.h"
#include "merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct merge_in in[2] = { { .label = "a" }, { .label = "b" } };
	char err[600];
	if (!null && !(null = fopen("/dev/null", "w")))
		return 0;
	if (jr_parse(&in[0].doc, (const char *)data, size, err, sizeof(err)))
		return 0;
	in[1].doc = in[0].doc;
	merge_write(null, in, 2, false, err, sizeof(err));
	merge_write(null, in, 2, true, err, sizeof(err));
	jr_free(&in[0].doc);
	return 0;
}
