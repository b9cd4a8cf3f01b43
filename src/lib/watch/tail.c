/* Following growing log files: read only the bytes appended since the last
 * read (pread from a kept offset), reopen a file that was replaced, restart
 * one that was truncated, and treat a file that does not exist yet as empty. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/watch.h"

void assay_tail_init(struct assay_tail *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->path = xstrdup(path);
	t->fd = -1;
}

void assay_tail_release(struct assay_tail *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->path);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

static int ensure_open(struct assay_tail *t);

void assay_tail_skip_existing(struct assay_tail *t)
{
	if (ensure_open(t) > 0) {
		struct stat st;
		if (fstat(t->fd, &st) == 0)
			t->off = (unsigned long long)st.st_size;
	}
}

/* Open the file if it is not open or was replaced. 0: nothing to read yet. */
static int ensure_open(struct assay_tail *t)
{
	struct stat st;
	if (stat(t->path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (t->fd >= 0 && (st.st_dev != t->dev || st.st_ino != t->ino)) {
		close(t->fd);
		t->fd = -1;
	}
	if (t->fd < 0) {
		t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
		if (t->fd < 0)
			return errno == ENOENT ? 0 : -1;
		if (fstat(t->fd, &st) != 0)
			return -1;
		t->dev = st.st_dev;
		t->ino = st.st_ino;
		t->off = 0;
	}
	return 1;
}

void assay_tail_refresh(struct assay_tail *t)
{
	if (t->fd < 0)
		return;
	unsigned long long off = t->off;
	dev_t dev = t->dev;
	ino_t ino = t->ino;
	close(t->fd);
	t->fd = -1;
	if (ensure_open(t) > 0 && t->dev == dev && t->ino == ino)
		t->off = off;
}

long long assay_tail_read(struct assay_tail *t, struct sbuf *out, size_t max)
{
	int rc = ensure_open(t);
	if (rc <= 0)
		return rc;
	struct stat st;
	if (fstat(t->fd, &st) != 0)
		return -1;
	if ((unsigned long long)st.st_size < t->off)
		t->off = 0; /* truncated: the file started over */
	unsigned long long avail = (unsigned long long)st.st_size - t->off;
	size_t want = avail < max ? (size_t)avail : max;
	if (!want)
		return 0;
	sbuf_grow(out, want);
	size_t got = 0;
	while (got < want) {
		ssize_t n =
		    pread(t->fd, out->buf + out->len + got, want - got, (off_t)(t->off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	out->len += got;
	out->buf[out->len] = '\0';
	t->off += got;
	return (long long)got;
}
