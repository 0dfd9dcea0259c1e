/* tests/run/judge/p2p-one-stage.cu: plugins/p2p/oneshot.cu with its input
 * copied to one stage for every call instead of two (odd and even calls),
 * so that a rank a call ahead may overwrite the copy a peer is still
 * reading. Built and run by tests/packs/p2p/test_p2p.sh, which records
 * whether the judge saw it (a race: it need not show in every run). */
#define ONESHOT_NAME "p2p-one-stage"
#define ONESHOT_SUMMARY "oneshot whose input copy is not double-buffered"
#define ONESHOT_ONE_STAGE 1
#include "../../../plugins/p2p/oneshot.cu"
