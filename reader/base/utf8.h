/*
 * utf8.h - UTF-8 sequences, the one place every layer decodes, checks and
 * encodes them (the JSON scanner, the JSON writer and reader of the
 * command layer, the terminal's sanitizer).
 */
#ifndef TD_UTF8_H
#define TD_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one UTF-8 sequence at s (n bytes available, n >= 1).  Returns
 * its length (1..4) and the code point in *cp, or 0 if the bytes are not
 * valid UTF-8 (a stray continuation or a bad lead byte, overlong, a
 * surrogate, past U+10FFFF, cut short). */
size_t td_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* The length of the sequence lead byte c starts (2..4), 0 if c is not a
 * multi-byte lead byte (ASCII, a continuation, 0xC0/0xC1, past 0xF4). */
int td_utf8_lead_len(int c);

/* Writes code point cp (below 0x110000) as UTF-8 into out; returns its
 * length (1..4). */
size_t td_utf8_encode(uint32_t cp, char out[4]);

#endif
