/* tests/procs/test_hub_socket.c: the ranks' sockets (src/procs/rank_hub.c):
 * a TCP connection made by hub_connect, and one taken by accept with
 * hub_no_delay, send at once (TCP_NODELAY: a message's header and body are
 * two writes); a local socket is left as it is, without error. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "procs/rank_hub.h"
#include "tap.h"

static int no_delay(int fd)
{
    int on = -1;
    socklen_t size = sizeof on;
    if (getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &size) != 0)
        return -1;
    return on != 0;
}

int main(void)
{
    plan(4);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t size = sizeof addr;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(listener, 1) != 0 || getsockname(listener, (struct sockaddr *)&addr, &size) != 0)
        skip_all("no TCP socket on the loopback interface");
    char address[64];
    snprintf(address, sizeof address, "tcp:127.0.0.1:%u", (unsigned)ntohs(addr.sin_port));
    int client = hub_connect(address);
    ok(client >= 0, "hub_connect(%s) connects", address);
    is_int(no_delay(client), 1, "... and its socket has TCP_NODELAY");
    int server = accept(listener, NULL, NULL);
    hub_no_delay(server);
    is_int(no_delay(server), 1, "hub_no_delay turns TCP_NODELAY on for an accepted TCP socket");
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0)
        bail("socketpair failed");
    hub_no_delay(pair[0]);
    char byte = 'x', got = 0;
    ok(write(pair[0], &byte, 1) == 1 && read(pair[1], &got, 1) == 1 && got == 'x',
       "hub_no_delay leaves a local socket as it was, still carrying bytes");
    close(pair[0]);
    close(pair[1]);
    close(server);
    close(client);
    close(listener);
    return done();
}
