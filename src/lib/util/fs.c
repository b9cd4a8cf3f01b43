/* Files, clocks and number parsing shared by every module. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "assay/util.h"

char *assay_read_file(const char *path, size_t *len, struct assay_error *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		assay_error_at(e, ASSAY_USAGE, path, NULL, 0, "cannot read: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		assay_error_at(e, ASSAY_USAGE, path, NULL, 0, "cannot read: Is a directory");
		return NULL;
	}
	struct sbuf sb = SBUF_INIT;
	sbuf_grow(&sb, st.st_size > 0 ? (size_t)st.st_size : 4096);
	for (;;) {
		sbuf_grow(&sb, 65536);
		ssize_t n = read(fd, sb.buf + sb.len, sb.alloc - sb.len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			sbuf_release(&sb);
			assay_error_at(e, ASSAY_USAGE, path, NULL, 0, "cannot read: %s",
				       strerror(err));
			return NULL;
		}
		if (n == 0)
			break;
		sb.len += (size_t)n;
	}
	close(fd);
	sb.buf[sb.len] = '\0';
	return sbuf_detach(&sb, len);
}

assay_err assay_map_file(const char *path, struct assay_file_map *m, struct assay_error *e)
{
	memset(m, 0, sizeof(*m));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size <= SIZE_MAX) {
		void *p =
		    mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
			m->data = m->base = p;
			m->len = (size_t)st.st_size;
			m->mapped = true;
			return ASSAY_OK;
		}
	}
	if (fd >= 0)
		close(fd);
	char *data = assay_read_file(path, &m->len, e);
	if (!data)
		return ASSAY_USAGE;
	m->data = m->base = data;
	return ASSAY_OK;
}

void assay_unmap_file(struct assay_file_map *m)
{
	if (m->mapped)
		munmap(m->base, m->len);
	else
		free(m->base);
	memset(m, 0, sizeof(*m));
}

assay_err assay_write_file_atomic(const char *path, const void *data, size_t len,
				  struct assay_error *e)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		assay_error_at(e, ASSAY_INFRA, path, NULL, 0, "cannot write: %s", strerror(errno));
		free(tmp);
		return ASSAY_INFRA;
	}
	if (!assay_write_full(fd, data, len)) {
		int err = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return assay_error_at(e, ASSAY_INFRA, path, NULL, 0, "cannot write: %s",
				      strerror(err));
	}
	if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		int err = errno;
		unlink(tmp);
		free(tmp);
		return assay_error_at(e, ASSAY_INFRA, path, NULL, 0, "cannot write: %s",
				      strerror(err));
	}
	free(tmp);
	return ASSAY_OK;
}

void assay_remove_flat_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

assay_err assay_mkdirs(const char *path, struct assay_error *e)
{
	char *p = xstrdup(path);
	size_t n = strlen(p);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		char c = p[i];
		p[i] = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			int err = errno;
			assay_error_at(e, ASSAY_INFRA, p, NULL, 0, "cannot create directory: %s",
				       strerror(err));
			free(p);
			return ASSAY_INFRA;
		}
		p[i] = c;
	}
	free(p);
	return ASSAY_OK;
}

void assay_time_rfc3339(int64_t unix_seconds, char out[32])
{
	time_t t = (time_t)unix_seconds;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void assay_now_rfc3339(char out[32])
{
	assay_time_rfc3339((int64_t)time(NULL), out);
}

double assay_monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool assay_parse_long(const char *s, long long *out)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool assay_parse_double(const char *s, double *out)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	/* ERANGE also flags a subnormal result (4.9e-324), which is exact
	 * enough to keep; an underflow to zero and an overflow are not. */
	bool subnormal = errno == ERANGE && v != 0 && fabs(v) < DBL_MIN;
	if ((errno && !subnormal) || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

bool assay_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool assay_env_name_valid(const char *s)
{
	if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

bool assay_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !memcmp(s + a - b, suffix, b);
}

ssize_t assay_read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

bool assay_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return false;
		}
		p += w;
		n -= (size_t)w;
	}
	return true;
}
