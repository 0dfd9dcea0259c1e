/* tests/run/judge/p2p-no-fence.cu: plugins/p2p/twoshot.cu with the closing
 * barrier's system fence left out and its flags set by relaxed stores, so
 * that a peer may see "done" before the chunks written into its result.
 * Built and run by tests/packs/p2p/test_p2p.sh, which records whether the
 * judge saw it. */
#define TWOSHOT_NAME "p2p-no-fence"
#define TWOSHOT_SUMMARY "twoshot whose closing flags are set with no system fence"
#define TWOSHOT_NO_FENCE 1
#include "../../../plugins/p2p/twoshot.cu"
