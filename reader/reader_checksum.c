/*
 * reader_checksum.c - the readers' checksum for the layers above them.
 *
 * The model's cache files need a fast checksum; CRC-32C is the one the
 * byte parsers already have (hardware accelerated), offered here through
 * the reader interface so that nothing above reader/ includes a parser.
 */
#include "reader.h"

#include "reader/parse/crc32c.h"

uint32_t
reader_checksum(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_update(crc, buf, len);
}
