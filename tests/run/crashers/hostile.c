/* tests/run/crashers/hostile.c: plugins that attack the process that loads or
 * runs them, one per build (HOSTILE_CASE, set by tests/run/local.mk). Each is
 * otherwise a correct sum (crasher.h). tests/run/test_hostile.sh checks that
 * none of it reaches redbench's own process or another plugin's row:
 *   1 a constructor that segfaults        2 a constructor that calls exit(5)
 *   3 a constructor that never returns    4 a constructor that chdir()s to /
 *   5 a constructor that blocks SIGINT    6 a destructor that prints to
 *                                           standard output
 *   7 run leaves a thread running that crashes the process 50 ms after
 *     teardown
 *   8 run forks a child that sleeps for ten minutes (its pid is written to
 *     the file named by HOSTILE_CHILD_PID)
 *   9 a parameter whose default (100) lies outside its own range (1..64)
 *  10 a summary, a help text and a choice with DEL and 0x9b (CSI) in them
 *  11 a name with ESC, DEL and 0x9b in it
 *  12 a descriptor that changes after the first load: the first process
 *     that loads it leaves the file named by HOSTILE_MARK, and every later
 *     one gives version 2.0 instead of 1.0 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crasher.h"

#if HOSTILE_CASE == 1
__attribute__((constructor)) static void hostile_load(void)
{
    crasher_segfault();
}
#define HOSTILE_NAME "hostile-segv"
#elif HOSTILE_CASE == 2
__attribute__((constructor)) static void hostile_load(void)
{
    exit(5);
}
#define HOSTILE_NAME "hostile-exit"
#elif HOSTILE_CASE == 3
__attribute__((constructor)) static void hostile_load(void)
{
    for (;;)
        pause();
}
#define HOSTILE_NAME "hostile-hang"
#elif HOSTILE_CASE == 4
__attribute__((constructor)) static void hostile_load(void)
{
    if (chdir("/") != 0)
        crasher_segfault();
}
#define HOSTILE_NAME "hostile-chdir"
#elif HOSTILE_CASE == 5
__attribute__((constructor)) static void hostile_load(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, NULL);
}
#define HOSTILE_NAME "hostile-sigmask"
#elif HOSTILE_CASE == 6
__attribute__((destructor)) static void hostile_unload(void)
{
    printf("HOSTILE-DESTRUCTOR on standard output\n");
    fflush(stdout);
}
#define HOSTILE_NAME "hostile-dtor"
#elif HOSTILE_CASE == 7
static atomic_int torn_down;
static atomic_int started;

static void *hostile_thread(void *arg)
{
    (void)arg;
    while (!atomic_load(&torn_down)) {
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);
    }
    struct timespec later = {0, 50000000};
    nanosleep(&later, NULL);
    crasher_segfault();
    return NULL;
}

static int hostile_run(void *state)
{
    if (!atomic_exchange(&started, 1)) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, hostile_thread, NULL) == 0)
            pthread_detach(thread);
    }
    return test_run(state);
}

static void hostile_teardown(void *state)
{
    atomic_store(&torn_down, 1);
    test_teardown(state);
}
#define HOSTILE_RUN hostile_run
#define HOSTILE_TEARDOWN hostile_teardown
#define HOSTILE_NAME "hostile-thread"
#elif HOSTILE_CASE == 8
static int forked;

static int hostile_run(void *state)
{
    if (!forked) {
        forked = 1;
        pid_t child = fork();
        if (child == 0) {
            for (int k = 0; k < 600; k++)
                sleep(1);
            _exit(0);
        }
        const char *file = getenv("HOSTILE_CHILD_PID");
        if (child > 0 && file && *file) {
            FILE *f = fopen(file, "w");
            if (f) {
                fprintf(f, "%ld\n", (long)child);
                fclose(f);
            }
        }
    }
    return test_run(state);
}
#define HOSTILE_RUN hostile_run
#define HOSTILE_NAME "hostile-fork"
#elif HOSTILE_CASE == 9
static const rb_param_spec bad_default[] = {
    {.name = "block", .type = RB_PARAM_INT, .default_value = "100", .min = 1, .max = 64,
     .flags = RB_PARAM_POW2, .help = "its default is outside its own range"},
};
#define HOSTILE_PARAMS bad_default
#define HOSTILE_NAME "bad-default"
#elif HOSTILE_CASE == 10
static const char *const evil_words[] = {"plain", "x\x7fy", NULL};
static const rb_param_spec evil_params[] = {
    {.name = "word", .type = RB_PARAM_CHOICE, .default_value = "plain", .choices = evil_words,
     .help = "help with \x9b" "2J in it"},
};
#define HOSTILE_PARAMS evil_params
#define HOSTILE_SUMMARY "EVIL-SUMMARY with DEL \x7f and CSI \x9b" "31m in it"
#define HOSTILE_NAME "evil-summary"
#elif HOSTILE_CASE == 11
#define HOSTILE_NAME "evil\x1b[31m\x7f\x9b" "2Jname"
#elif HOSTILE_CASE == 12
static const char *shifty_version(void)
{
    const char *mark = getenv("HOSTILE_MARK");
    if (!mark || !*mark)
        return "1.0";
    if (access(mark, F_OK) == 0)
        return "2.0";
    int fd = open(mark, O_CREAT | O_WRONLY, 0644);
    if (fd >= 0)
        close(fd);
    return "1.0";
}
#define HOSTILE_VERSION shifty_version()
#define HOSTILE_NAME "hostile-shifty"
#endif

#ifndef HOSTILE_RUN
#define HOSTILE_RUN test_run
#endif
#ifndef HOSTILE_TEARDOWN
#define HOSTILE_TEARDOWN test_teardown
#endif

static rb_plugin plugin = CRASHER(HOSTILE_NAME, NULL, test_init, HOSTILE_RUN, test_verify,
                                  HOSTILE_TEARDOWN);

RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
RB_EXPORT const rb_plugin *redbench_plugin_entry(void)
{
#ifdef HOSTILE_PARAMS
    plugin.params = HOSTILE_PARAMS;
    plugin.n_params = 1;
#endif
#ifdef HOSTILE_SUMMARY
    plugin.summary = HOSTILE_SUMMARY;
#endif
#ifdef HOSTILE_VERSION
    plugin.version = HOSTILE_VERSION;
#endif
    return &plugin;
}
