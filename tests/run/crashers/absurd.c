/* tests/run/crashers/absurd.c: descriptors with absurd values, one per build
 * (ABSURD_CASE, set by tests/run/local.mk). Each must be rejected when it is
 * loaded, with a reason, and must not disturb any other plugin:
 *   1 name is NULL                  2 name of 100 000 characters
 *   3 4 294 967 295 parameters      4 a parameter with no default (NULL)
 *   5 a summary of 1 MiB            6 a choice list of 100 000 words
 *   7 ops and dtypes outside the enums */
#include <string.h>

#include "crasher.h"

#define LONG_TEXT (1 << 20)

static char long_text[LONG_TEXT + 1];
static const char *long_choices[100001];

static const rb_param_spec no_default[] = {
    {.name = "width", .type = RB_PARAM_INT, .default_value = NULL, .min = 1, .max = 8,
     .help = "has no default"},
};

static const rb_param_spec many_choices[] = {
    {.name = "word", .type = RB_PARAM_CHOICE, .default_value = "w", .choices = long_choices,
     .help = "one of very many words"},
};

static rb_plugin plugin = CRASHER("absurd", NULL, test_init, test_run, test_verify,
                                  test_teardown);

RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
RB_EXPORT const rb_plugin *redbench_plugin_entry(void)
{
    switch (ABSURD_CASE) {
    case 1:
        plugin.name = NULL;
        break;
    case 2:
        memset(long_text, 'a', LONG_TEXT);
        long_text[100000] = '\0';
        plugin.name = long_text;
        break;
    case 3:
        plugin.n_params = UINT32_MAX;
        break;
    case 4:
        plugin.params = no_default;
        plugin.n_params = 1;
        break;
    case 5:
        memset(long_text, 's', LONG_TEXT);
        plugin.summary = long_text;
        break;
    case 6:
        for (size_t k = 0; k < 100000; k++)
            long_choices[k] = "w";
        long_choices[100000] = NULL;
        plugin.params = many_choices;
        plugin.n_params = 1;
        break;
    case 7:
        plugin.ops = 1u << 30;
        plugin.dtypes = 1u << 29;
        break;
    }
    return &plugin;
}
