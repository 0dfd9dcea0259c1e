/* tests/plugins/wrong-answer.c: loads and runs, but every sum it hands back
 * is 1000 too large: the core must report the configuration `wrong`. */
#define TEST_PLUGIN_BIAS 1000
#include "test_plugin.h"

static const rb_plugin wrong_answer =
    TEST_PLUGIN("wrong-answer", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, sizeof(rb_plugin), test_run);

RB_PLUGIN_ENTRY(wrong_answer)
