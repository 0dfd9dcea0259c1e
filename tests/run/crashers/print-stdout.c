/* tests/run/crashers/print-stdout.c: a correct plugin that prints to standard
 * output (with printf and with write(1, ...)) when it is loaded and in every
 * callback. None of it may reach the machine-readable output on redbench's
 * standard output. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "crasher.h"

/* At load time, before redbench has called anything. */
__attribute__((constructor)) static void chatter_at_load(void)
{
    printf("PLUGIN-STDOUT at load time {not json\n");
    fflush(stdout);
}

static void chatter(const rb_config *cfg, const char *where)
{
    static const char raw[] = "PLUGIN-STDOUT raw write\n";
    if (!crasher_faulty(cfg))
        return;
    printf("PLUGIN-STDOUT printf in %s {not json\n", where);
    fflush(stdout);
    ssize_t ignored = write(STDOUT_FILENO, raw, sizeof raw - 1);
    (void)ignored;
}

static int print_describe(const rb_config *cfg, rb_description *out)
{
    chatter(cfg, "describe");
    strcpy(out->label, "chatty");
    return RB_OK;
}

static int print_init(const rb_config *cfg, void **state)
{
    chatter(cfg, "init");
    return test_init(cfg, state);
}

static int print_run(void *state)
{
    test_sum *s = state;
    chatter(s->cfg, "run");
    return test_run(state);
}

static int print_verify(void *state, rb_result *result)
{
    test_sum *s = state;
    chatter(s->cfg, "verify");
    return test_verify(state, result);
}

static void print_teardown(void *state)
{
    test_sum *s = state;
    chatter(s->cfg, "teardown");
    printf("PLUGIN-STDOUT unflushed at teardown\n"); /* left in the buffer */
    test_teardown(state);
}

static const rb_plugin plugin = CRASHER("print-stdout", print_describe, print_init, print_run,
                                        print_verify, print_teardown);
RB_PLUGIN_ENTRY(plugin)
