/* tests/run/judge/p2p-stale.cu: plugins/p2p/twoshot.cu with the bug such
 * kernels have in the wild: a barrier that only waits the first time (it
 * checks that a peer's flag is set, not that it is set for this call), so
 * from the second call on a rank may read a peer's input before the peer's
 * host has written this call's data into it, and hand back chunks that the
 * peers have not yet written for this call. Built and run by
 * tests/packs/p2p/test_p2p.sh, which expects its rows `wrong`. */
#define TWOSHOT_NAME "p2p-stale"
#define TWOSHOT_SUMMARY "twoshot whose barrier only waits on the first call"
#define TWOSHOT_STALE 1
#include "../../../plugins/p2p/twoshot.cu"
