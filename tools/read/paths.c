/*
 * paths.c - command-line arguments to trace files (paths.h).
 *
 * `lbtrace run` leaves DIR/A/001/lbshim.PID.lbt and the like, so a
 * directory is searched recursively; a run directory also holds other
 * files (the program's own), hence the *.lbt filter.  Order is name order
 * so that the same tree always gives the same files in the same order.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "read/paths.h"

#define LBT_MAX_DEPTH 16 /* directory recursion */

/* PATH's index in PS when a regular file PS already has; else -1, with
 * *dev and *ino set (0 0 for what is not a regular file). */
static long seen(const struct lbt_paths *ps, const char *path,
		 unsigned long long *dev, unsigned long long *ino)
{
	struct stat st;
	size_t i;

	*dev = *ino = 0;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	*dev = (unsigned long long)st.st_dev;
	*ino = (unsigned long long)st.st_ino;
	for (i = 0; i < ps->n; i++)
		if (ps->v[i].ino == *ino && ps->v[i].dev == *dev)
			return (long)i;
	return -1;
}

static int push(struct lbt_paths *ps, const char *path, const char *dir,
		FILE *err)
{
	unsigned long long dev, ino;
	struct lbt_path *p;
	long twin = seen(ps, path, &dev, &ino);

	if (twin >= 0) {
		if (err)
			fprintf(err,
				"lbtrace: %s: the same file as %s, read once\n",
				path, ps->v[twin].path);
		return 0;
	}

	if (ps->n == ps->cap) {
		size_t nc = ps->cap ? ps->cap * 2 : 16;

		p = realloc(ps->v, nc * sizeof(*p));
		if (!p)
			return -1;
		ps->v = p;
		ps->cap = nc;
	}
	p = &ps->v[ps->n];
	p->path = strdup(path);
	p->dir = dir ? strdup(dir) : NULL;
	p->dev = dev;
	p->ino = ino;
	if (!p->path || (dir && !p->dir)) {
		free(p->path);
		free(p->dir);
		return -1;
	}
	ps->n++;
	return 0;
}

static int is_lbt(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".lbt");
}

/* Adds the *.lbt files under DIR; 0, 1 (a directory unreadable), -1. */
static int add_dir(struct lbt_paths *ps, const char *dir, int depth, FILE *err)
{
	struct dirent **ents = NULL;
	struct stat st;
	int n, i, rc = 0, r;
	char *p;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		if (err)
			fprintf(err, "lbtrace: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (rc < 0 || e[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", dir, e) < 0) {
			rc = -1;
			continue;
		}
		/* Directories are entered only if real (a link to one
		 * could make a loop); files may be links. */
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth < LBT_MAX_DEPTH) {
				r = add_dir(ps, p, depth + 1, err);
				rc = r < 0 ? -1 : rc | r;
			}
		} else if (is_lbt(e) && stat(p, &st) == 0 &&
			   S_ISREG(st.st_mode)) {
			if (push(ps, p, dir, err))
				rc = -1;
		}
		free(p);
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return rc;
}

int lbt_paths_add(struct lbt_paths *ps, const char *arg, FILE *err)
{
	struct stat st;
	size_t before = ps->n, len;
	char *d;
	int rc;

	if (stat(arg, &st) < 0) {
		if (err)
			fprintf(err, "lbtrace: %s: %s\n", arg, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		rc = push(ps, arg, NULL, err);
		goto out;
	}
	if (!(d = strdup(arg))) {
		rc = -1;
		goto out;
	}
	len = strlen(d);
	while (len > 1 && d[len - 1] == '/')
		d[--len] = 0;
	rc = add_dir(ps, d, 0, err);
	if (!rc && ps->n == before) {
		if (err)
			fprintf(err,
				"lbtrace: %s: no trace file (*.lbt) in it\n",
				d);
		rc = 1;
	}
	free(d);
out:
	if (rc < 0 && err)
		fprintf(err, "lbtrace: %s: out of memory\n", arg);
	return rc;
}

void lbt_paths_free(struct lbt_paths *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		free(ps->v[i].path);
		free(ps->v[i].dir);
	}
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}
