/*
 * delayline: a fixed one-way delay for the packets an iptables NFQUEUE rule hands over, in order, with TCP left
 * end to end (the kernels without netem: runner/lib/network.sh).
 *
 *   delayline --queue N --delay-us D
 *
 * Binds NFQUEUE N (metadata only, GSO packets whole, a queue of 65536 packets), prints
 * {"ready": true, "queue": N, "delay_us": D} on stdout, then accepts every packet D microseconds after it arrived,
 * first in first out. SIGTERM or SIGINT: exits 0, its counts on stderr. The rule has no --queue-bypass: once this
 * process is gone the kernel drops what the rule queues, so a run never goes on undelayed.
 *
 * One thread reads the queue and stamps each packet (CLOCK_MONOTONIC); another sleeps to the oldest packet's due
 * time (clock_nanosleep TIMER_ABSTIME, a timer slack of 1 ns) and releases every packet then due with one batch
 * verdict: packet ids grow in arrival order, so "all ids up to X" is exactly the due prefix of the FIFO.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define RING 65536 /* a power of two, and the kernel queue's length: the ring cannot overflow */

static struct mnl_socket *nl;
static uint32_t queue_num;
static int64_t delay_ns;
static struct { uint32_t id; int64_t due; } ring[RING];
static uint64_t head, tail, packets, max_held, errors;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t stopping;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int send_config(uint8_t cmd, int params) {
    char buf[MNL_SOCKET_BUFFER_SIZE];
    struct nlmsghdr *nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, queue_num);
    if (params) {
        nfq_nlmsg_cfg_put_params(nlh, NFQNL_COPY_META, 0);
        nfq_nlmsg_cfg_put_qmaxlen(nlh, RING);
        /* GSO packets whole (not split into wire-sized ones for us); no NFQA_CFG_F_FAIL_OPEN */
        mnl_attr_put_u32(nlh, NFQA_CFG_FLAGS, htonl(NFQA_CFG_F_GSO));
        mnl_attr_put_u32(nlh, NFQA_CFG_MASK, htonl(NFQA_CFG_F_GSO | NFQA_CFG_F_FAIL_OPEN));
    } else {
        nfq_nlmsg_cfg_put_cmd(nlh, AF_INET, cmd);
    }
    return mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0 ? -1 : 0;
}

static void *release(void *arg) {
    (void)arg;
    char buf[MNL_SOCKET_BUFFER_SIZE];
    prctl(PR_SET_TIMERSLACK, 1UL);
    for (;;) {
        pthread_mutex_lock(&lock);
        while (head == tail) pthread_cond_wait(&filled, &lock);
        int64_t due = ring[head % RING].due;
        pthread_mutex_unlock(&lock);
        struct timespec at = {.tv_sec = due / 1000000000, .tv_nsec = due % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {}
        int64_t now = now_ns();
        uint32_t last = 0;
        pthread_mutex_lock(&lock);
        while (head != tail && ring[head % RING].due <= now) last = ring[head++ % RING].id;
        pthread_mutex_unlock(&lock);
        struct nlmsghdr *nlh = nfq_nlmsg_put(buf, NFQNL_MSG_VERDICT_BATCH, queue_num);
        nfq_nlmsg_verdict_put(nlh, (int)last, NF_ACCEPT);
        if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static int on_packet(const struct nlmsghdr *nlh, void *data) {
    struct nlattr *attr[NFQA_MAX + 1] = {0};
    if (nfq_nlmsg_parse(nlh, attr) < 0 || !attr[NFQA_PACKET_HDR]) return MNL_CB_OK;
    struct nfqnl_msg_packet_hdr *ph = mnl_attr_get_payload(attr[NFQA_PACKET_HDR]);
    pthread_mutex_lock(&lock);
    ring[tail % RING].id = ntohl(ph->packet_id);
    ring[tail % RING].due = *(int64_t *)data;
    tail++;
    packets++;
    if (tail - head > max_held) max_held = tail - head;
    pthread_cond_signal(&filled);
    pthread_mutex_unlock(&lock);
    return MNL_CB_OK;
}

static void on_signal(int sig) {
    (void)sig;
    stopping = 1;
}

static const char *option(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return fallback;
}

int main(int argc, char **argv) {
    queue_num = (uint32_t)atol(option(argc, argv, "--queue", "0"));
    delay_ns = atoll(option(argc, argv, "--delay-us", "-1")) * 1000;
    if (delay_ns < 0) {
        fprintf(stderr, "usage: delayline --queue N --delay-us D\n");
        return 2;
    }
    prctl(PR_SET_TIMERSLACK, 1UL);
    /* a runner killed without its clean-up takes its delay lines with it */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) return 0;
    nl = mnl_socket_open(NETLINK_NETFILTER);
    int rcvbuf = 32 << 20;
    if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
        perror("delayline: netlink");
        return 1;
    }
    /* room for a full queue's notifications; SO_RCVBUFFORCE passes rmem_max (the runner is root) */
    if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf) < 0)
        setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    if (send_config(NFQNL_CFG_CMD_BIND, 0) < 0 || send_config(0, 1) < 0) {
        perror("delayline: bind the queue");
        return 1;
    }
    /* the signals reach the reading thread only: its recv returns EINTR */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_t t;
    if (pthread_create(&t, NULL, release, NULL) != 0) {
        perror("delayline: thread");
        return 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    printf("{\"ready\": true, \"queue\": %u, \"delay_us\": %lld}\n", queue_num, (long long)(delay_ns / 1000));
    fflush(stdout);
    static char buf[1 << 18];
    unsigned long lost = 0;
    while (!stopping) {
        ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof buf);
        if (n < 0) {
            if (errno == ENOBUFS) lost++; /* notifications lost; a later batch verdict still releases them */
            else if (errno != EINTR) {
                perror("delayline: recv");
                return 1;
            }
            continue;
        }
        int64_t due = now_ns() + delay_ns;
        if (mnl_cb_run(buf, (size_t)n, 0, 0, on_packet, &due) < 0) errors++;
    }
    pthread_mutex_lock(&lock);
    fprintf(stderr, "delayline: queue %u, %lld us: %llu packets, at most %llu held, %llu held at exit, %lu overflows, "
            "%llu errors\n", queue_num, (long long)(delay_ns / 1000), (unsigned long long)packets,
            (unsigned long long)max_held, (unsigned long long)(tail - head), lost, (unsigned long long)errors);
    return 0;
}
