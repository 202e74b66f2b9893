/*
 * mindspore.c - placeholder registration so the registry links; replaced by the
 * mindspore reader.
 */
#include "reader.h"

static int
probe(const char *dir)
{
	(void)dir;
	return 0;
}

const struct reader_ops mindspore_reader_ops = {
	.name = "mindspore",
	.looks_for = "mindspore dump",
	.probe = probe,
};
