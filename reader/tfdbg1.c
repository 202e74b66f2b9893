/*
 * tfdbg1.c - placeholder registration so the registry links; replaced by the
 * tfdbg1 reader.
 */
#include "reader.h"

static int
probe(const char *dir)
{
	(void)dir;
	return 0;
}

const struct reader_ops tfdbg1_reader_ops = {
	.name = "tfdbg1",
	.looks_for = "tfdbg1 dump",
	.probe = probe,
};
