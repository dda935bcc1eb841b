/*
 * floor: the machine's own floor for a round trip, measured in the same run as the protocols.
 *
 *   floor server --host H --port P        answers every raw TCP frame (idl/rawtcp.md) with a 5-byte
 *                                         "ok, void" frame: what a raw TCP ping costs with no runtime
 *   floor client --host H --port P --warmup N --calls N --min-ms T --max-calls M --repetitions R
 *                                         sends ping frames (6 bytes, as rawtcp's ping) and prints
 *                                         {"samples_ns": [[...], ...]} on stdout
 *   floor spin --iterations N             a fixed amount of CPU work; prints {"ns": T}: a calibration
 *                                         probe that shows a slow phase of the host
 *   floor sink --host H --port P --bytes N  takes one connection's bytes; prints {"bytes": B, "seconds": S,
 *                                         "total": N', "mss": M, "mtu": U}: B bytes in S s from the moment a
 *                                         quarter of N had come (past slow start) to the end
 *   floor bulk --host H --port P --bytes N --seconds T
 *                                         sends N bytes to a sink, or what T seconds allow
 *   floor burst --host H --port P --seconds T
 *                                         1-byte UDP datagrams for T seconds; prints {"sent": N}
 *
 * Same path as the protocols (the runner's namespace and veth, same CPUs), same frame sizes as the raw
 * TCP ping, TCP_NODELAY, one persistent connection, blocking sockets, a thread per connection.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const unsigned char PING[6] = {0, 0, 0, 2, 0, 0};  /* length 2, operation 0 (ping) */
static const unsigned char OK_VOID[5] = {0, 0, 0, 1, 0};   /* length 1, status 0 */

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int read_full(int fd, unsigned char *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r == 0) return -1;
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

static int write_full(int fd, const unsigned char *buf, size_t n) {
    size_t sent = 0;
    while (sent < n) {
        ssize_t w = write(fd, buf + sent, n - sent);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        sent += (size_t)w;
    }
    return 0;
}

static void no_delay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static const char *option(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 2; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return fallback;
}

static void *serve(void *arg) {
    int fd = (int)(intptr_t)arg;
    unsigned char head[4], body[65536];
    for (;;) {
        if (read_full(fd, head, 4) < 0) break;
        uint32_t len = (uint32_t)head[0] << 24 | (uint32_t)head[1] << 16 | (uint32_t)head[2] << 8 | head[3];
        if (len > sizeof body || read_full(fd, body, len) < 0) break;
        if (write_full(fd, OK_VOID, sizeof OK_VOID) < 0) break;
    }
    close(fd);
    return NULL;
}

static void on_term(int sig) {
    (void)sig;
    _exit(0);
}

/* A listening socket on --host and --port, its ready line printed; -1 (said why) when it cannot be had. */
static int listen_on(int argc, char **argv) {
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_port = htons((uint16_t)atoi(option(argc, argv, "--port", "0")));
    if (inet_pton(AF_INET, option(argc, argv, "--host", "127.0.0.1"), &addr.sin_addr) != 1) {
        fprintf(stderr, "floor: --host must be an IPv4 address\n");
        return -1;
    }
    int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 64) < 0) {
        perror("floor: bind");
        return -1;
    }
    socklen_t alen = sizeof addr;
    getsockname(lfd, (struct sockaddr *)&addr, &alen);
    signal(SIGTERM, on_term);
    printf("{\"ready\": true, \"port\": %d}\n", ntohs(addr.sin_port));
    fflush(stdout);
    return lfd;
}

static int run_server(int argc, char **argv) {
    int lfd = listen_on(argc, argv);
    if (lfd < 0) return 1;
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR) continue;
            perror("floor: accept");
            return 1;
        }
        no_delay(fd);
        pthread_t t;
        pthread_create(&t, NULL, serve, (void *)(intptr_t)fd);
        pthread_detach(t);
    }
}

static int ping(int fd) {
    unsigned char answer[5];
    if (write_full(fd, PING, sizeof PING) < 0 || read_full(fd, answer, sizeof answer) < 0) return -1;
    return answer[4] == 0 ? 0 : -1;
}

static int run_client(int argc, char **argv) {
    long warmup = atol(option(argc, argv, "--warmup", "1000"));
    long calls = atol(option(argc, argv, "--calls", "200"));
    long max_calls = atol(option(argc, argv, "--max-calls", "0"));
    long reps = atol(option(argc, argv, "--repetitions", "10"));
    int64_t min_ns = (int64_t)atol(option(argc, argv, "--min-ms", "0")) * 1000000;
    if (max_calls < calls) max_calls = calls;
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_port = htons((uint16_t)atoi(option(argc, argv, "--port", "0")));
    inet_pton(AF_INET, option(argc, argv, "--host", "127.0.0.1"), &addr.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        perror("floor: connect");
        return 1;
    }
    no_delay(fd);
    for (long i = 0; i < warmup; i++)
        if (ping(fd) < 0) goto broken;
    int64_t *samples = malloc(sizeof *samples * (size_t)max_calls);
    if (!samples) return 1;
    printf("{\"samples_ns\": [");
    for (long r = 0; r < reps; r++) {
        long n = 0;
        int64_t start = now_ns(), t0 = start, t1;
        do {
            if (ping(fd) < 0) goto broken;
            t1 = now_ns();
            samples[n++] = t1 - t0;
            t0 = t1;
        } while (n < max_calls && (n < calls || t1 - start < min_ns));
        printf("%s[", r ? ", " : "");
        for (long i = 0; i < n; i++) printf("%s%lld", i ? ", " : "", (long long)samples[i]);
        printf("]");
    }
    printf("]}\n");
    close(fd);
    return 0;
broken:
    fprintf(stderr, "floor: the server closed the connection or answered wrongly\n");
    return 1;
}

/* The network self-test's rate (runner/lib/network.sh): the receiver's count, not the sender's. */
static int run_sink(int argc, char **argv) {
    long long quarter = atoll(option(argc, argv, "--bytes", "0")) / 4, total = 0, from = -1;
    int lfd = listen_on(argc, argv);
    if (lfd < 0) return 1;
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0) return 1;
    static unsigned char buf[1 << 16];
    int64_t t0 = 0, t1 = 0;
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        total += r;
        t1 = now_ns();
        if (from < 0 && total >= quarter) from = total, t0 = t1;
    }
    int mss = 0, mtu = 0;
    socklen_t len = sizeof mss;
    getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len);
    len = sizeof mtu;
    getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &len);
    printf("{\"bytes\": %lld, \"seconds\": %.6f, \"total\": %lld, \"mss\": %d, \"mtu\": %d}\n",
           from < 0 ? 0 : total - from, (double)(t1 - t0) / 1e9, total, mss, mtu);
    fflush(stdout); /* before the sender sees the close and the runner stops this process */
    close(fd);
    return 0;
}

static int run_bulk(int argc, char **argv) {
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_port = htons((uint16_t)atoi(option(argc, argv, "--port", "0")));
    inet_pton(AF_INET, option(argc, argv, "--host", "127.0.0.1"), &addr.sin_addr);
    long long left = atoll(option(argc, argv, "--bytes", "0"));
    int64_t end = now_ns() + (int64_t)(atof(option(argc, argv, "--seconds", "5")) * 1e9);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        perror("floor: connect");
        return 1;
    }
    static unsigned char buf[1 << 16];
    while (left > 0 && now_ns() < end) {
        ssize_t w = write(fd, buf, left < (long long)sizeof buf ? (size_t)left : sizeof buf);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return 1;
        left -= w;
    }
    shutdown(fd, SHUT_WR);
    while (read(fd, buf, sizeof buf) > 0) {} /* the sink closes once it has every byte */
    return 0;
}

/* The network self-test's loss: datagrams whose fate the loss rule's counters tell (nobody listens). */
static int run_burst(int argc, char **argv) {
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_port = htons((uint16_t)atoi(option(argc, argv, "--port", "9")));
    inet_pton(AF_INET, option(argc, argv, "--host", "127.0.0.1"), &addr.sin_addr);
    int64_t end = now_ns() + (int64_t)(atof(option(argc, argv, "--seconds", "1")) * 1e9);
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    long long sent = 0;
    while (now_ns() < end)
        for (int i = 0; i < 64; i++)
            if (sendto(fd, "x", 1, 0, (struct sockaddr *)&addr, sizeof addr) == 1) sent++;
    printf("{\"sent\": %lld}\n", sent);
    return 0;
}

static int run_spin(int argc, char **argv) {
    long n = atol(option(argc, argv, "--iterations", "20000000"));
    volatile uint64_t x = 88172645463325252ULL;
    uint64_t v = x;
    int64_t start = now_ns();
    for (long i = 0; i < n; i++) {  /* xorshift64: integer work the compiler cannot fold away */
        v ^= v << 13;
        v ^= v >> 7;
        v ^= v << 17;
    }
    x = v;
    printf("{\"ns\": %lld}\n", (long long)(now_ns() - start));
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "server") == 0) return run_server(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "client") == 0) return run_client(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "spin") == 0) return run_spin(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "sink") == 0) return run_sink(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "bulk") == 0) return run_bulk(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "burst") == 0) return run_burst(argc, argv);
    fprintf(stderr, "usage: floor server|client|spin|sink|bulk|burst [options] (see the comment at the top of floor.c)\n");
    return 2;
}
