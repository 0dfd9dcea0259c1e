/* src/procs/role.c: what this process is, from its environment
 * (procs/role.h). */
#include "procs/role.h"

#include <stdio.h>
#include <stdlib.h>

#include "procs/rank_hub.h"

int process_rank_asked(rank_asked *asked)
{
    const char *sock_path = getenv("REDBENCH_RANK_OF");
    const char *first = getenv("REDBENCH_RANK_CONFIG");
    char *end = NULL;
    unsigned long long index = first ? strtoull(first, &end, 10) : 0;
    if (!sock_path || !*sock_path || !hub_launcher_rank(&asked->rank) || !first || end == first ||
        *end)
        return -1;
    asked->config = (size_t)index;
    snprintf(asked->leader, sizeof asked->leader, "unix:%s", sock_path);
    return 0;
}

int process_role(void)
{
    const char *sock_path = getenv("REDBENCH_RANK_OF");
    if (sock_path && *sock_path)
        return RB_ROLE_RANK;
    uint32_t rank, size;
    if (hub_launched(&rank, &size) && rank > 0)
        return RB_ROLE_HUB;
    return RB_ROLE_MAIN;
}
