/*
 * similar.h - telling submissions that are the same work apart from their wording: a fingerprint
 * of a kernel's tokens with comments and whitespace dropped and its own names renamed in order
 * (similar.c). grade --class flags students whose file has another student's fingerprint.
 */
#ifndef CUDACHEF_SIMILAR_H
#define CUDACHEF_SIMILAR_H

/* The fingerprint of source text as 64 hex digits into hex: 0, or -1. */
int similar_fingerprint(const char *text, char hex[65]);

#endif
