/* Terminal escape sequences out of text that is shown (a match's line, an
 * error's text): the raw log keeps them. ECMA-48: a CSI sequence is ESC [,
 * parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F and a final byte
 * 0x40-0x7E ("\033[1;31m"); an OSC string is ESC ] up to BEL or ESC \; any
 * other escape is ESC, intermediate bytes 0x20-0x2F and one final byte. */
#include "assay/watch.h"

static size_t skip_escape(const char *s, size_t n, size_t i)
{
	if (i + 1 >= n)
		return n;
	char c = s[i + 1];
	if (c == '[') {
		size_t k = i + 2;
		while (k < n && (unsigned char)s[k] >= 0x20 && (unsigned char)s[k] <= 0x3f)
			k++;
		return k < n && (unsigned char)s[k] >= 0x40 && (unsigned char)s[k] <= 0x7e ? k + 1
											   : k;
	}
	if (c == ']') {
		for (size_t k = i + 2; k < n; k++) {
			if (s[k] == '\a')
				return k + 1;
			if (s[k] == '\033' && k + 1 < n && s[k + 1] == '\\')
				return k + 2;
		}
		return n;
	}
	size_t k = i + 1; /* intermediates, then the final byte ("\033(B") */
	while (k < n && (unsigned char)s[k] >= 0x20 && (unsigned char)s[k] <= 0x2f)
		k++;
	return k < n ? k + 1 : n;
}

size_t assay_ansi_strip(char *s, size_t n)
{
	size_t out = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] == '\033') {
			i = skip_escape(s, n, i);
			continue;
		}
		s[out++] = s[i++];
	}
	if (out < n)
		s[out] = '\0';
	return out;
}
