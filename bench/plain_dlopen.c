/* bench/plain_dlopen.c: runs the plain CUB loop from a shared object loaded
 * with dlopen, the way redbench loads a plugin, to tell what the plugin
 * form costs (a runtime linked into a dlopen'd object) from what redbench's
 * own measuring costs. With --record, the loop's events are recorded by
 * another object (bench/plain_record.so), through its own CUDA runtime.
 *
 *     plain_dlopen ./plain_cub_sum.so [--record ./plain_record.so] [N ...]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void *open_library(const char *path)
{
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library)
        fprintf(stderr, "%s\n", dlerror());
    return library;
}

static void *find(void *library, const char *name)
{
    void *symbol = dlsym(library, name);
    if (!symbol)
        fprintf(stderr, "%s\n", dlerror());
    return symbol;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LOOP.so [--record RECORD.so] [N ...]\n", argv[0]);
        return 2;
    }
    void *loop = open_library(argv[1]);
    void *run = loop ? find(loop, "plain_cub_sum_main") : NULL;
    if (!run)
        return 1;
    int first = 1; /* the loop's argv[0]: sizes follow it */
    if (argc >= 4 && strcmp(argv[2], "--record") == 0) {
        void *recorder = open_library(argv[3]);
        void *record = recorder ? find(recorder, "plain_record") : NULL;
        void *use = find(loop, "plain_cub_sum_use_record");
        if (!record || !use)
            return 1;
        ((void (*)(void *))use)(record);
        first = 3;
    }
    return ((int (*)(int, char **))run)(argc - first, argv + first);
}
