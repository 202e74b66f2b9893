/*
 * numpy.h - encoding a tensor as a numpy array file (version 1.0), for
 * tdbg's export command.  Pure: bytes into a strbuf, no file access.
 */
#ifndef TD_NUMPY_H
#define TD_NUMPY_H

#include <stdbool.h>
#include <stddef.h>

#include "tensor.h"
#include "util.h"

#define TD_NUMPY_EXT ".npy"         /* the extension that selects this form */
#define TD_NUMPY_FORMAT "npy"       /* its name in export's JSON */

/* Appends the numpy array file of the elements v selects of t (shape: v's
 * counts) to sb.  false with a message in err for a dtype numpy cannot
 * hold (string, resource, variant) or a tensor without data. */
bool td_numpy_encode(const struct td_tensor *t, const struct td_slice_view *v, struct strbuf *sb,
		     char *err, size_t errlen);

#endif
