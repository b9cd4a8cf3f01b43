/* Reading timestamps: RFC 3339 and the near variants result files use
 * ("2026-11-30 19:15:02", fractions, offsets, bare dates), as Unix seconds. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "assay/util.h"

static bool digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int month_days(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

bool assay_time_parse(const char *s, int64_t *unix_seconds)
{
	const char *p = s;
	int y, mo, d, h = 0, mi = 0, sec = 0, off = 0;
	if (!s || !digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' ||
	    !digits(&p, 2, &d))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo))
		return false;
	if (*p) {
		if (*p != 'T' && *p != 't' && *p != ' ')
			return false;
		p++;
		if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi) || *p++ != ':' ||
		    !digits(&p, 2, &sec))
			return false;
		if (h > 23 || mi > 59 || sec > 60)
			return false;
		if (*p == '.') {
			p++;
			if (!isdigit((unsigned char)*p))
				return false;
			while (isdigit((unsigned char)*p))
				p++;
		}
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			int sign = *p++ == '-' ? -1 : 1, oh, om;
			if (!digits(&p, 2, &oh) || *p++ != ':' || !digits(&p, 2, &om) || oh > 23 ||
			    om > 59)
				return false;
			off = sign * (oh * 3600 + om * 60);
		}
		if (*p)
			return false;
	}
	*unix_seconds = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off;
	return true;
}

bool assay_time_canonical(const char *s, char out[32])
{
	int64_t t;
	if (!assay_time_parse(s, &t))
		return false;
	assay_time_rfc3339(t, out);
	/* The fraction, when given, follows the seconds (assay_time_parse
	 * reads fixed-width fields, so it starts at offset 19). */
	if (strlen(s) < 21 || s[19] != '.')
		return true;
	const char *f = s + 20;
	size_t n = 0;
	while (isdigit((unsigned char)f[n]))
		n++;
	if (n > 9)
		n = 9;
	while (n && f[n - 1] == '0')
		n--;
	if (!n)
		return true;
	snprintf(out + 19, 32 - 19, ".%.*sZ", (int)n, f);
	return true;
}

bool assay_time_whole_second(const char *ts, char sec[32])
{
	if (strlen(ts) < 21 || ts[19] != '.')
		return false;
	snprintf(sec, 32, "%.19sZ", ts);
	return true;
}
