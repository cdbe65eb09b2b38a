// Kept apart from cws.c: <linux/tcp.h> (which has tcpi_bytes_received) clashes with
// the <netinet/tcp.h> that libwebsockets' headers bring in.
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stddef.h>
#include <string.h>

unsigned long long cws_socket_bytes_received(int fd) {
    struct tcp_info info;
    socklen_t size = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return 0;
    return size >= (socklen_t)(offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(info.tcpi_bytes_received)) ? info.tcpi_bytes_received : 0;
}
