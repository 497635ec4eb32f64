/*
 * paths.h - the trace files that command-line arguments name: a file as
 * given, a directory as the *.lbt files under it.  Every command that
 * reads traces (print, summary, crash, export, ab) takes its files from
 * here, so that all take the same files in the same order and name what
 * they cannot read in the same words ("lbtrace: PATH: reason").
 */
#ifndef LBTRACE_PATHS_H
#define LBTRACE_PATHS_H

#include <stddef.h>
#include <stdio.h>

/* One trace file to read. */
struct lbt_path {
	char *path;
	char *dir; /* the directory it was found in; NULL: named as such */
	unsigned long long dev, ino; /* a regular file's; 0 0 otherwise */
};

/* A list of them; zero-initialized when empty. */
struct lbt_paths {
	struct lbt_path *v;
	size_t n, cap;
};

/*
 * Appends to PS the trace files that ARG names.  ARG that is not a
 * directory is taken as it is (a file, a pipe).  A directory stands for
 * the files ending in ".lbt" under it (regular files, or links to them),
 * names starting with '.' left out, in name order (alphasort(3)) within
 * each directory, its real subdirectories (not links to directories)
 * searched in the same order where their names fall, 16 levels deep.
 *
 * A regular file already in PS (the same device and inode, named twice
 * or also found in a directory) is taken once, with one line "lbtrace:
 * PATH: the same file as EARLIER, read once" on ERR.
 *
 * Returns 0; 1 when ARG cannot be read (it does not exist...), when a
 * directory under it cannot be read, or when a directory ARG holds no
 * trace file, after one line "lbtrace: PATH: reason" on ERR for each
 * (the files found are kept; the search goes on past a subdirectory it
 * cannot read); -1 when out of memory, after a message.
 */
int lbt_paths_add(struct lbt_paths *ps, const char *arg, FILE *err);

/* Frees what PS holds and empties it. */
void lbt_paths_free(struct lbt_paths *ps);

#endif
