/*
 * replay_main.c - a main() for fuzz targets built without libFuzzer: feeds
 * each file named on the command line (or each file of each directory) to
 * LLVMFuzzerTestOneInput once.  `make test` replays the regression corpus
 * with it (tests/fuzz/replay.sh), so a fixed crash stays fixed on machines
 * without clang's fuzzer runtime.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int
run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!fp || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		if (fp)
			fclose(fp);
		return 1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		fclose(fp);
		free(buf);
		return 1;
	}
	fclose(fp);
	/* A private copy of exactly n bytes, so overreads hit the redzone. */
	uint8_t *exact = malloc(n ? (size_t)n : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	memcpy(exact, buf, (size_t)n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, (size_t)n);
	free(exact);
	return 0;
}

static int
run_path(const char *path, int *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: %s: no such file\n", path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = 0;
	if (!d)
		return 1;
	while ((e = readdir(d))) {
		char sub[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		rc |= run_path(sub, count);
	}
	closedir(d);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = 0, count = 0;
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		rc |= run_path(argv[i], &count);
	printf("replay: %s: %d input(s) ok\n", argc > 0 ? argv[0] : "?", count);
	return rc;
}
