/* tests/run/judge/p2p-skip-peer.cu: plugins/p2p/oneshot.cu with one peer's
 * slice skipped (the loop over the ranks stops one short, so the last
 * rank's input is never added). Everything else is the strategy as it is.
 * Built and run by tests/packs/p2p/test_p2p.sh, which expects every row
 * `wrong`. */
#define ONESHOT_NAME "p2p-skip-peer"
#define ONESHOT_SUMMARY "oneshot that leaves the last rank's input out"
#define ONESHOT_SKIP_PEER 1
#include "../../../plugins/p2p/oneshot.cu"
