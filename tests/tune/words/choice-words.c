/* tests/tune/words/choice-words.c: a test plugin whose choice words are
 * hard to write in an experiment file: an i32 sum on the cpu backend with
 * parameter `mode`, whose default holds ',' (a list's separator) and whose
 * other words hold ' ;' (a comment's start) and '#', and parameter `style`,
 * whose default holds ' ;'. $WORDS_OK names the one mode that runs (every
 * other fails in init), so that the winner of a search is known; "none"
 * makes every mode fail. tests/tune/test_tune_hostile.sh tunes it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/plugin.h>

#include "../../plugins/test_plugin.h" /* test_sum_u32, test_i32_of, test_teardown */

static const char *const modes[] = {"c,d", "plain", "e#f", "#g", "a ;b", NULL};
static const char *const styles[] = {"x ;y", "z", NULL};

typedef struct words_state {
    const rb_config *cfg;
    int64_t sum;
} words_state;

static const rb_param_spec words_params[] = {
    {.name = "mode", .type = RB_PARAM_CHOICE, .default_value = "c,d", .choices = modes,
     .help = "a word; only $WORDS_OK runs"},
    {.name = "style", .type = RB_PARAM_CHOICE, .default_value = "x ;y", .choices = styles,
     .help = "a word that changes nothing"},
};

static int words_init(const rb_config *cfg, void **state)
{
    const char *ok = getenv("WORDS_OK");
    int64_t mode = rb_param_int(cfg, "mode", 0);
    if (ok && *ok && (mode < 0 || mode >= 5 || strcmp(modes[mode], ok) != 0)) {
        cfg->host->error(cfg->host, "mode %s does not run here (WORDS_OK = %s)",
                         mode >= 0 && mode < 5 ? modes[mode] : "?", ok);
        return RB_ERROR;
    }
    words_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

static int words_run(void *state)
{
    words_state *s = state;
    s->sum = test_i32_of(test_sum_u32(s->cfg->input, s->cfg->n));
    return RB_OK;
}

static int words_verify(void *state, rb_result *result)
{
    result->i = ((words_state *)state)->sum;
    return RB_OK;
}

static const rb_plugin choice_words = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "choice-words",
    .summary = "test plugin: an i32 sum with choice words hard to write",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32),
    RB_PLUGIN_PARAMS(words_params),
    .init = words_init,
    .run = words_run,
    .verify = words_verify,
    .teardown = test_teardown,
};

RB_PLUGIN_ENTRY(choice_words)
