/* fuzz/replay.c: main() for the fuzzing harnesses without libFuzzer: feeds
 * each file named on the command line (each file of a folder named) to
 * LLVMFuzzerTestOneInput once. `make check` uses it to replay the seed corpus
 * and every input that once found a bug, with any compiler. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t size = 0, cap = 4096;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            uint8_t *bigger = realloc(data, cap *= 2);
            if (!bigger)
                free(data);
            data = bigger;
        }
    }
    fclose(f);
    if (!data)
        return -1;
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    replayed++;
    return 0;
}

static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file: %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(len);
        if (!child)
            break;
        snprintf(child, len, "%s/%s", path, e->d_name);
        failed |= replay_path(child) != 0;
        free(child);
    }
    closedir(d);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int k = 1; k < argc; k++)
        failed |= replay_path(argv[k]) != 0;
    fprintf(stderr, "replayed %ld inputs\n", replayed); /* stdout may be closed */
    return failed;
}
