/* src/report/html_map.h: the HTML report's map of strategies against n
 * (report/html_map.c). */
#ifndef RB_REPORT_HTML_MAP_H
#define RB_REPORT_HTML_MAP_H

#include "plot/figures.h"
#include "results/rows.h"

/* A heat map of each strategy (a run, with its op and dtype where the
 * rows hold several) against n, each cell the best GB/s of the strategy's
 * ok rows at that n, built into `set` (one figure, drawn by
 * plot/svg.c), when the ok rows hold two sizes or more; else `set` is left
 * empty. Returns the figures made (0 or 1); free `set` with plot_set_free. */
size_t html_strategy_map(const rb_results *res, plot_set *set);

#endif
