/* src/report/html_map.h: the HTML report's map of strategies against n
 * (report/html_map.c). */
#ifndef RB_REPORT_HTML_MAP_H
#define RB_REPORT_HTML_MAP_H

#include "plot/figures.h"
#include "results/rows.h"

/* A heat map of each strategy (a run, with its op and dtype where the
 * rows hold several) against n, each cell the best GB/s of the strategy's
 * ok rows at that n, built into `set` (figures drawn by plot/svg.c): one
 * for each shape (rows, axis, lengths) of the ok rows that holds two sizes
 * or more, titled with its shape where there are several, at most 12.
 * Returns the figures made (0 when none); free `set` with plot_set_free. */
size_t html_strategy_map(const rb_results *res, plot_set *set);

#endif
