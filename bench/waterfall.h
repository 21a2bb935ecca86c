/* waterfall.h — `cuzk-bench waterfall`: stage statistics and an SVG waterfall
 * from the TIMELINE lines of a daemon log (see waterfall.c). */
#ifndef CZ_BENCH_WATERFALL_H
#define CZ_BENCH_WATERFALL_H

/* argv[0] is "waterfall"; returns the process exit status (0 ok, 1 no events
 * or an unreadable / unwritable file, 2 usage) */
int cz_bench_waterfall_main(int argc, char **argv);

#endif
