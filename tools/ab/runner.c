/*
 * runner.c - `lbtrace run [-n N] [--ab A/B] [-o DIR] -- CMD...`.
 *
 * Runs CMD N times under the shim, or with --ab alternately under two
 * policy sets (A B A B ...: slow drifts of the machine, such as thermal
 * throttling or a page cache warming up, then hit both arms alike), each
 * run writing its traces into DIR/<arm>/<run>/ with its own LBSHIM_RUN_ID,
 * and ends with `lbtrace ab DIR/A --vs DIR/B`.
 *
 * Each run gets a process group of its own, made the terminal's
 * foreground group while it runs (as a shell does), so that Ctrl-C
 * reaches the command and all its children; a SIGINT, SIGTERM or SIGHUP
 * sent to lbtrace itself is forwarded to that group.  Either way no
 * further run starts and the traces are kept.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ab/ab.h"
#include "ab/runner.h"

#define RUN_DEFAULT_N_AB 5
#define RUN_MAX_N 100000

struct arm {
	const char *name;	/* "A", "B", or NULL without --ab */
	char policies[64];	/* LBSHIM_POLICIES of the arm */
	int done;		/* runs that ran to the end (any status) */
};

struct runopts {
	long n;
	const char *ab;
	const char *out;
	int json;
	const char *svg;
	char **cmd;
};

static volatile sig_atomic_t stop_sig;
static volatile sig_atomic_t child_pg;

static void on_signal(int sig)
{
	int e = errno;

	stop_sig = sig;
	if (child_pg > 0)
		kill(-(pid_t)child_pg, sig);
	errno = e;
}

static void usage(FILE *f)
{
	fputs("usage: lbtrace run [-n N] [--ab A/B] [-o DIR] [--json] "
	      "[--svg FILE] -- CMD [ARG...]\n"
	      "  runs CMD under liblbshim.so (found next to lbtrace) with "
	      "tracing on\n"
	      "  -n N        runs per arm (default 5 with --ab, else 1)\n"
	      "  --ab A/B    two policy sets, e.g. trace/trace,stream0,pool;"
	      " runs\n"
	      "              alternate A B A B ..., then the ab table is "
	      "printed\n"
	      "  -o DIR      traces in DIR/<arm>/<run>/lbshim.<pid>.lbt "
	      "(default: a\n"
	      "              new directory lbtrace-run.<date>-<time>)\n"
	      "  --json, --svg FILE: passed to the final `lbtrace ab`\n",
	      f);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("lbtrace run: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	return 1;
}

/* Bad usage naming the unknown policy BAD[0..len) of SPEC, given as
 * WHAT: "--ab trace/pol: no policy named "pol"; ...".  Returns 1. */
static int bad_policy(const char *what, const char *spec, const char *bad,
		      int len)
{
	char msg[512];

	snprintf(msg, sizeof(msg),
		 "%s%s%.200s: no policy named \"%.*s\"; policies are trace, "
		 "stream0, pool, all, none",
		 what, what[strlen(what) - 1] == '=' ? "" : " ", spec, len,
		 bad);
	return usage_error("%s", msg);
}

/*
 * Normalizes one arm's policy list SPEC (LEN bytes) into OUT: known names
 * only, `trace` always on (both arms need traces), `all` kept as is.
 * Returns 0, or the length of the first unknown name, which *bad then
 * points at (*bad unchanged on success).
 */
static int arm_policies(const char *spec, size_t len, char *out, size_t n,
			const char **bad)
{
	static const char *const known[] = { "stream0", "pool" };
	int want[2] = { 0, 0 }, all = 0;
	size_t i = 0, j;
	unsigned k;

	while (i < len) {
		size_t next;

		j = i;
		while (j < len && spec[j] != ',')
			j++;
		next = j + 1;
		/* blanks around a name, as LBSHIM_POLICIES accepts them */
		while (i < j && (spec[i] == ' ' || spec[i] == '\t'))
			i++;
		while (j > i && (spec[j - 1] == ' ' || spec[j - 1] == '\t'))
			j--;
		if (j - i == 3 && !strncmp(spec + i, "all", 3)) {
			all = 1;
		} else if (j == i || (j - i == 5 && !strncmp(spec + i, "trace", 5)) ||
			   (j - i == 4 && !strncmp(spec + i, "none", 4))) {
			/* trace is added below; none means only trace */
		} else {
			for (k = 0; k < 2; k++)
				if (j - i == strlen(known[k]) &&
				    !strncmp(spec + i, known[k], j - i))
					break;
			if (k == 2) {
				*bad = spec + i;
				return (int)(j - i < 64 ? j - i : 64);
			}
			want[k] = 1;
		}
		i = next;
	}
	snprintf(out, n, "%s%s%s", all ? "all" : "trace",
		 !all && want[0] ? ",stream0" : "", !all && want[1] ? ",pool" : "");
	return 0;
}

static int parse(int argc, char **argv, struct runopts *o)
{
	char *end;
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-n") || !strcmp(a, "--ab") ||
			   !strcmp(a, "-o") || !strcmp(a, "--svg")) {
			if (i + 1 >= argc)
				return -usage_error("%s needs a value", a);
			if (a[1] == 'n') {
				errno = 0;
				o->n = strtol(argv[++i], &end, 10);
				if (errno || *end || o->n < 1 || o->n > RUN_MAX_N)
					return -usage_error("-n %s: want a count of "
							    "runs (1..100000)",
							    argv[i]);
			} else if (a[1] == 'o') {
				o->out = argv[++i];
			} else if (a[2] == 'a') {
				o->ab = argv[++i];
			} else {
				o->svg = argv[++i];
			}
		} else if (!strncmp(a, "--ab=", 5)) {
			o->ab = a + 5;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (a[0] == '-') {
			return -usage_error("unknown option %s", a);
		} else {
			break;
		}
	}
	if (i >= argc)
		return -usage_error("%s", "no command given (lbtrace run [OPTIONS] "
				    "-- CMD...)");
	o->cmd = argv + i;
	if (!o->n)
		o->n = o->ab ? RUN_DEFAULT_N_AB : 1;
	return 1;
}

/* Absolute path of liblbshim.so next to lbtrace into BUF; -1 if none. */
static int find_shim(char *buf, size_t len)
{
	static const char *const rel[] = { "liblbshim.so", "../lib/liblbshim.so" };
	char exe[PATH_MAX], cand[PATH_MAX + 32], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	unsigned i;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0;
	for (i = 0; i < 2; i++) {
		snprintf(cand, sizeof(cand), "%s/%s", exe, rel[i]);
		if (access(cand, R_OK) == 0 && realpath(cand, buf) &&
		    strlen(buf) < len)
			return 0;
	}
	fprintf(stderr, "lbtrace run: liblbshim.so not found in %s or %s/../lib\n",
		exe, exe);
	return -1;
}

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX], *p;
	size_t n = strlen(path);

	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, path, n + 1);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0777) && errno != EEXIST ? -1 : 0;
}

/* Creates the output directory (never reusing one that has files) and
 * puts its absolute path in OUT. */
static int make_outdir(const char *want, char *out, size_t len)
{
	char name[256], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int i;

	if (want) {
		if (mkdirs(want) < 0) {
			fprintf(stderr, "lbtrace run: %s: %s\n", want, strerror(errno));
			return -1;
		}
		/* rmdir succeeds only on an empty directory: then remake it */
		if (rmdir(want) < 0 || mkdir(want, 0777) < 0) {
			fprintf(stderr, "lbtrace run: %s exists and is not empty;"
				" traces are never overwritten\n", want);
			return -1;
		}
		snprintf(name, sizeof(name), "%s", want);
	} else {
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		for (i = 1;; i++) {
			if (i == 1)
				snprintf(name, sizeof(name), "lbtrace-run.%s", stamp);
			else
				snprintf(name, sizeof(name), "lbtrace-run.%s.%d",
					 stamp, i);
			if (!mkdir(name, 0777))
				break;
			if (errno != EEXIST || i > 1000) {
				fprintf(stderr, "lbtrace run: %s: %s\n", name,
					strerror(errno));
				return -1;
			}
		}
	}
	if (!realpath(name, out) || strlen(out) >= len)
		return -1;
	return 0;
}

/* PATH with every '%' doubled, for LBSHIM_TRACE's pattern syntax. */
static char *pattern_escape(const char *path)
{
	static const char file[] = "/lbshim.%p.lbt";
	char *o = malloc(2 * strlen(path) + sizeof(file)), *p = o;

	if (!o)
		return NULL;
	for (; *path; path++) {
		if (*path == '%')
			*p++ = '%';
		*p++ = *path;
	}
	memcpy(p, file, sizeof(file));
	return o;
}

/* Sets the child's environment; returns -1 on failure. */
static int child_env(const char *shim, const char *dir, uint64_t run_id,
		     const char *policies)
{
	const char *old = getenv("LD_PRELOAD");
	char *pre = NULL, *trace = pattern_escape(dir), id[32];
	int rc = -1;

	if (!trace)
		return -1;
	if (old && *old && strcmp(old, shim) != 0) {
		if (asprintf(&pre, "%s %s", shim, old) < 0)
			pre = NULL;
	} else {
		pre = strdup(shim);
	}
	snprintf(id, sizeof(id), "%" PRIu64, run_id);
	if (pre && !setenv("LD_PRELOAD", pre, 1) &&
	    !setenv("LBSHIM_TRACE", trace, 1) &&
	    !setenv("LBSHIM_RUN_ID", id, 1) &&
	    !setenv("LBSHIM_POLICIES", policies, 1))
		rc = 0;
	free(pre);
	free(trace);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Runs CMD once in DIR; returns its wait status, or -1 if it could not be
 * started.
 */
static int run_once(char **cmd, const char *shim, const char *dir,
		    uint64_t run_id, const char *policies)
{
	int tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
	int status = -1;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "lbtrace run: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		sigset_t none;

		setpgid(0, 0);
		/* Take the terminal here too: the command may read it before
		 * the parent's tcsetpgrp, and would stop (SIGTTIN). */
		if (tty)
			tcsetpgrp(STDIN_FILENO, getpid());
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGTTOU, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (child_env(shim, dir, run_id, policies) < 0) {
			fprintf(stderr, "lbtrace run: cannot set the environment\n");
			_exit(127);
		}
		execvp(cmd[0], cmd);
		fprintf(stderr, "lbtrace run: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* also here: whichever of the two runs first */
	child_pg = pid;
	if (stop_sig)	/* a signal came between fork and now */
		kill(-pid, stop_sig);
	if (tty)
		tcsetpgrp(STDIN_FILENO, pid);
	for (;;) {
		if (waitpid(pid, &status, WUNTRACED) < 0) {
			if (errno == EINTR)
				continue;
			status = -1;
			break;
		}
		if (!WIFSTOPPED(status))
			break;
		/* Ctrl-Z: stop as a whole, as a shell's job would, and
		 * resume the command when we are resumed. */
		if (tty)
			tcsetpgrp(STDIN_FILENO, getpgrp());
		raise(SIGSTOP);
		if (tty)
			tcsetpgrp(STDIN_FILENO, pid);
		kill(-pid, SIGCONT);
	}
	child_pg = 0;
	if (tty)
		tcsetpgrp(STDIN_FILENO, getpgrp());
	return status;
}

/* Number of trace files (*.lbt) in DIR, where a run's processes write. */
static int count_traces(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".lbt"))
			n++;
	}
	closedir(d);
	return n;
}

/* PATH of program NAME as execvp finds it, into BUF; -1 if not found. */
static int which(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/'))
		return snprintf(buf, n, "%s", name) < (int)n ? 0 : -1;
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(buf, n, "%.*s/%s", (int)(end - p), end == p ? "." : p,
			     name) < (int)n && access(buf, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* Nonzero if the ELF executable on FD has no program interpreter: it is
 * statically linked, and no loader is there to read LD_PRELOAD. */
static int elf_static(int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph))
		return 0; /* a script, or not an ELF we know: cannot tell */
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * sizeof(ph)) !=
		    sizeof(ph))
			return 0;
		if (ph.p_type == PT_INTERP)
			return 0;
	}
	return 1;
}

/* Nonzero if TEXT opens a library with ctypes: CDLL(...), or
 * ctypes.cdll.LoadLibrary(...) and the like. */
static int text_ctypes(const char *text)
{
	return strstr(text, "CDLL(") || strstr(text, "cdll.") ||
	       strstr(text, "LoadLibrary(");
}

/*
 * Reads the first MiB of the regular file at PATH: returns 1 if it opens
 * a library with ctypes, else 0; *py (if not NULL) is set nonzero when
 * the file is a script whose #! line names python.
 */
static int file_ctypes(const char *path, int *py)
{
	static char buf[1 << 20];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), found = 0;
	struct stat st;
	char *nl;

	if (py)
		*py = 0;
	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = 0; /* a NUL inside only ends the search early */
		found = text_ctypes(buf);
		if (py && !strncmp(buf, "#!", 2)) {
			nl = strchr(buf, '\n');
			if (nl)
				*nl = 0;
			*py = strstr(buf, "python") != NULL;
		}
	}
	close(fd);
	return found;
}

/*
 * Whether CMD (found at PATH, or "" when not found) runs Python: 0 no,
 * 1 yes, 2 yes and its code (a .py argument, the script itself when run
 * by its #! line, or a -c string) opens a library with ctypes.  A runtime
 * opened by ctypes.CDLL is called through dlsym on its own handle, which
 * finds the runtime's functions, never the preloaded shim's: the likely
 * reason for no trace.
 */
static int python_ctypes(char **cmd, const char *path)
{
	const char *base = strrchr(cmd[0], '/');
	size_t l;
	int i, py = 0, ct;

	base = base ? base + 1 : cmd[0];
	if (strncmp(base, "python", 6) != 0) {
		ct = *path ? file_ctypes(path, &py) : 0;
		return py ? 1 + ct : 0;
	}
	for (i = 1; cmd[i]; i++) {
		l = strlen(cmd[i]);
		if ((i > 1 && !strcmp(cmd[i - 1], "-c") &&
		     text_ctypes(cmd[i])) ||
		    (l > 3 && !strcmp(cmd[i] + l - 3, ".py") &&
		     file_ctypes(cmd[i], NULL)))
			return 2;
	}
	return 1;
}

/*
 * Why no trace came from a run of CMD: said once, after the runs.  The
 * shim writes its trace at the program's first HIP call, so no file means
 * the program made no HIP call, or the shim was not in it.  The second
 * is certain for a program that the loader runs in secure mode (setuid or
 * setgid to someone else: LD_PRELOAD is ignored) or that has no loader.
 */
static void explain_no_trace(char **cmd, long runs, long total)
{
	char path[PATH_MAX];
	const char *why = NULL;
	struct statvfs vfs;
	struct stat st;
	int fd, py;

	path[0] = 0;
	if (!which(cmd[0], path, sizeof(path)) &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		/* (on a nosuid mount the bits do nothing) */
		if (!fstat(fd, &st) &&
		    !(!fstatvfs(fd, &vfs) && (vfs.f_flag & ST_NOSUID)) &&
		    (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
		     ((st.st_mode & S_ISGID) && st.st_gid != getegid())))
			why = "it is setuid or setgid, so the loader ignores "
			      "LD_PRELOAD";
		else if (elf_static(fd))
			why = "it is statically linked, so nothing reads "
			      "LD_PRELOAD";
		close(fd);
	}
	fprintf(stderr, "lbtrace run: %ld of %ld run%s wrote no trace: ", runs,
		total, total == 1 ? "" : "s");
	py = why ? 0 : python_ctypes(cmd, path);
	if (why)
		fprintf(stderr, "liblbshim.so was not loaded into %s (%s)\n",
			cmd[0], why);
	else if (py == 2)
		fprintf(stderr,
			"%s made no HIP call through the shim: it calls HIP "
			"through ctypes.CDLL(...), which looks each function "
			"up on the runtime's own handle, and that bypasses "
			"the preloaded shim; open the runtime with "
			"mode=ctypes.RTLD_GLOBAL and call through "
			"ctypes.CDLL(None) (the README's ctypes recipe; "
			"lbshim(7), \"WHAT CANNOT BE INTERCEPTED\")\n",
			cmd[0]);
	else
		fprintf(stderr,
			"%s made no HIP call through the shim (it never "
			"called HIP, or liblbshim.so was not loaded: a "
			"program that clears LD_PRELOAD, or a runtime linked "
			"in statically%s)\n",
			cmd[0],
			py ? "; or it calls HIP through Python's "
			     "ctypes.CDLL(...), whose calls bypass the shim: "
			     "see the README's ctypes recipe"
			   : "");
}

static void describe(char *buf, size_t n, int status)
{
	if (status < 0)
		snprintf(buf, n, "not started");
	else if (WIFEXITED(status))
		snprintf(buf, n, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by %s", strsignal(WTERMSIG(status)));
	else
		snprintf(buf, n, "status 0x%x", status);
}

/* Ends with `lbtrace ab OUT/A --vs OUT/B`; returns ab's status. */
static int final_ab(const struct runopts *o, const char *out,
		    const struct arm *arms)
{
	char a[PATH_MAX + 8], b[PATH_MAX + 8];
	char *argv[8];
	int argc = 0;

	snprintf(a, sizeof(a), "%s/A", out);
	snprintf(b, sizeof(b), "%s/B", out);
	argv[argc++] = "ab";
	if (o->json)
		argv[argc++] = "--json";
	if (o->svg) {
		argv[argc++] = "--svg";
		argv[argc++] = (char *)o->svg;
	}
	argv[argc++] = a;
	argv[argc++] = "--vs";
	argv[argc++] = b;
	argv[argc] = NULL;
	if (!o->json) {
		printf("\nA: LBSHIM_POLICIES=%s   B: LBSHIM_POLICIES=%s\n",
		       arms[0].policies, arms[1].policies);
		fflush(stdout);
	}
	return lbt_cmd_ab(argc, argv);
}

int lbt_cmd_run(int argc, char **argv)
{
	struct arm arms[2] = { { .name = "A" }, { .name = "B" } };
	char shim[PATH_MAX], out[PATH_MAX], dir[PATH_MAX + 64], what[64];
	struct sigaction sa, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct runopts o;
	int narms, k, rc, failed = 0, status;
	long r, total, seq = 0, notrace = 0;
	int traced;
	uint64_t run_base;
	const char *slash, *bad = "";
	double t0;

	rc = parse(argc, argv, &o);
	if (rc <= 0)
		return -rc;
	if (o.ab) {
		slash = strchr(o.ab, '/');
		if (!slash || strchr(slash + 1, '/'))
			return usage_error("--ab %s: want A/B, e.g. "
					   "trace/trace,stream0,pool", o.ab);
		if ((k = arm_policies(o.ab, (size_t)(slash - o.ab),
				      arms[0].policies,
				      sizeof(arms[0].policies), &bad)) ||
		    (k = arm_policies(slash + 1, strlen(slash + 1),
				      arms[1].policies,
				      sizeof(arms[1].policies), &bad)))
			return bad_policy("--ab", o.ab, bad, k);
		narms = 2;
	} else {
		const char *p = getenv("LBSHIM_POLICIES");

		arms[0].name = NULL;
		if ((k = arm_policies(p ? p : "", p ? strlen(p) : 0,
				      arms[0].policies,
				      sizeof(arms[0].policies), &bad)))
			return bad_policy("LBSHIM_POLICIES=", p, bad, k);
		narms = 1;
	}
	if (find_shim(shim, sizeof(shim)) < 0 ||
	    make_outdir(o.out, out, sizeof(out)) < 0)
		return 2;
	/* Run ids unique across invocations: seconds, then the run. */
	run_base = (uint64_t)time(NULL) * 100000;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_sig = 0;
	for (k = 0; k < 3; k++)
		sigaction(sigs[k], &sa, &old[k]);
	signal(SIGTTOU, SIG_IGN); /* to take the terminal back */
	total = o.n * narms;
	fprintf(stderr, "lbtrace run: %ld run%s, traces in %s\n", total,
		total == 1 ? "" : "s", out);
	for (r = 1; r <= o.n && !stop_sig; r++) {
		for (k = 0; k < narms && !stop_sig; k++) {
			seq++;
			if (arms[k].name)
				snprintf(dir, sizeof(dir), "%s/%s/%03ld", out,
					 arms[k].name, r);
			else
				snprintf(dir, sizeof(dir), "%s/%03ld", out, r);
			if (mkdirs(dir) < 0) {
				fprintf(stderr, "lbtrace run: %s: %s\n", dir,
					strerror(errno));
				failed++;
				stop_sig = SIGTERM;
				break;
			}
			t0 = now_s();
			status = run_once(o.cmd, shim, dir, run_base + (uint64_t)seq,
					  arms[k].policies);
			if (status >= 0 && WIFSIGNALED(status) &&
			    WTERMSIG(status) == SIGINT)
				stop_sig = SIGINT; /* Ctrl-C at the terminal */
			describe(what, sizeof(what), status);
			arms[k].done += status >= 0;
			if (status != 0)
				failed++;
			/* (a command that could not start has been named) */
			traced = status < 0 || (WIFEXITED(status) &&
						WEXITSTATUS(status) == 127) ||
				 count_traces(dir) > 0;
			notrace += !traced;
			fprintf(stderr, "lbtrace run: [%ld/%ld] %s%s%03ld: %s, "
				"%.2f s%s%s\n", seq, total, arms[k].name ? arms[k].name : "",
				arms[k].name ? " " : "", r, what, now_s() - t0,
				traced ? "" : ", no trace",
				status ? "  <- failed" : "");
		}
	}
	for (k = 0; k < 3; k++)
		sigaction(sigs[k], &old[k], NULL);
	signal(SIGTTOU, SIG_DFL);
	if (stop_sig)
		fprintf(stderr, "lbtrace run: stopped by %s after %ld of %ld runs;"
			" traces kept in %s\n", strsignal(stop_sig), seq, total, out);
	if (failed)
		fprintf(stderr, "lbtrace run: %d of %ld run%s failed\n", failed, seq,
			seq == 1 ? "" : "s");
	if (notrace)
		explain_no_trace(o.cmd, notrace, seq);
	rc = 0;
	if (narms == 2 && arms[0].done && arms[1].done)
		rc = final_ab(&o, out, arms);
	else if (narms == 1)
		printf("lbtrace run: %ld run%s of %s, traces in %s\n", seq,
		       seq == 1 ? "" : "s", o.cmd[0], out);
	fflush(stdout);
	if (stop_sig)
		return 128 + stop_sig;
	if (failed)
		return 3;
	return rc;
}
