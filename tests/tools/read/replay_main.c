/*
 * replay_main.c - runs the fuzz harness without libFuzzer: each file
 * named (or each file in each directory named) once as it is, then in
 * deterministic variants (bytes flipped, cut short), so that `make check`
 * covers more than the corpus in a few seconds.
 *
 *   fuzz_replay [-m MUTATIONS] FILE|DIR...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t lcg = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return lcg >> 17;
}

static int run_file(const char *path, int mutations)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf, *m;
	long n;
	int i, k;

	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n ? n : 1);
	m = malloc(n ? n : 1);
	if (!buf || !m || fread(buf, 1, n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		free(m);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	for (i = 0; i < mutations && n; i++) {
		size_t len = n;

		memcpy(m, buf, n);
		for (k = 0; k < 1 + (int)(rnd() % 8); k++) {
			size_t at = rnd() % n;

			/* flips mostly where the structure is: header
			 * fields, block headers, record headers */
			if (rnd() % 2)
				at = rnd() % 2 ? rnd() % 256
					       : (at & ~(size_t)63) + rnd() % 8;
			m[at % n] ^= (uint8_t)(1u << (rnd() % 8));
			if (rnd() % 4 == 0)
				m[at % n] = (uint8_t)rnd();
		}
		if (rnd() % 5 == 0)
			len = rnd() % n;
		LLVMFuzzerTestOneInput(m, len);
	}
	free(buf);
	free(m);
	printf("replayed %s (+%d variants)\n", path, mutations);
	return 0;
}

int main(int argc, char **argv)
{
	int i, rc = 0, mutations = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (!strcmp(argv[i], "-m") && i + 1 < argc) {
			mutations = atoi(argv[++i]);
			continue;
		}
		if (stat(argv[i], &st)) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			char p[4096];

			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.')
					continue;
				snprintf(p, sizeof(p), "%s/%s", argv[i],
					 e->d_name);
				rc |= run_file(p, mutations);
			}
			if (d)
				closedir(d);
		} else {
			rc |= run_file(argv[i], mutations);
		}
	}
	return rc;
}
