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
 * A packet arrived when the kernel took it in (its receive timestamp, NFQA_TIMESTAMP: this process keeps a socket
 * that asks for timestamps, so the kernel stamps every packet it receives), not when this process read it: waking
 * the reading thread takes tens of microseconds on a virtual machine, and it is part of the delay, not on top of it.
 * A packet without a stamp (or with one from another clock) arrived when it was read.
 *
 * One thread reads the queue and stamps each packet's due time; another sleeps to the oldest packet's due time
 * (clock_nanosleep TIMER_ABSTIME, a timer slack of 1 ns) and releases every packet then due with one batch
 * verdict: packet ids grow in arrival order, so "all ids up to X" is exactly the due prefix of the FIFO.
 *
 * What a packet spent here beyond the delay (released minus arrived minus D: the reading thread's lag where it
 * exceeds D, and the release thread's lateness) is what the emulation adds to the path: every second with packets,
 * a line on stdout, {"t": UNIX_SECOND, "packets": N, "excess_us": {"p50": .., "p90": .., "p99": .., "max": ..}};
 * at exit, {"total": true, ...} with the same figures over the whole run, the reading thread's lag, its life in
 * seconds and the CPU it used (cpu_s).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define RING 65536 /* a power of two, and the kernel queue's length: the ring cannot overflow */
#define BUCKETS 4097 /* 1 us each, the last one everything from 4.096 ms */

/* microseconds, one per bucket: the figures of a second, of the run, and the reading thread's lag */
typedef struct { uint64_t n, max_ns, count[BUCKETS]; } histogram;

static struct mnl_socket *nl;
static uint32_t queue_num;
static int64_t delay_ns;
static struct { uint32_t id; int64_t arrived, due; } ring[RING];
static uint64_t head, tail, packets, stamped, max_held, errors;
static histogram second, total, lag; /* second and total: the release thread's, under the lock; lag: the reader's */
static histogram ended; /* a second just ended, printed after the verdict (or at exit) when `ended_at` is set */
static int64_t second_at, ended_at; /* the unix seconds `second` and `ended` count */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t stopping;

static int64_t clock_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
static int64_t real_ns(void) { return clock_ns(CLOCK_REALTIME); }


static void add(histogram *h, int64_t ns) {
    if (ns < 0) ns = 0;
    uint64_t us = (uint64_t)ns / 1000;
    h->count[us < BUCKETS - 1 ? us : BUCKETS - 1]++;
    h->n++;
    if ((uint64_t)ns > h->max_ns) h->max_ns = (uint64_t)ns;
}

/* the bucket (us) below which a share q of the figures fall */
static uint64_t quantile(const histogram *h, double q) {
    uint64_t seen = 0, rank = (uint64_t)(q * (double)h->n);
    for (uint64_t us = 0; us < BUCKETS; us++)
        if ((seen += h->count[us]) > rank) return us;
    return BUCKETS - 1;
}

static void print_figures(FILE *out, const char *head, const char *name, const histogram *h) {
    fprintf(out, "%s\"%s\": {\"p50\": %llu, \"p90\": %llu, \"p99\": %llu, \"max\": %.1f}", head, name,
            (unsigned long long)quantile(h, 0.5), (unsigned long long)quantile(h, 0.9),
            (unsigned long long)quantile(h, 0.99), (double)h->max_ns / 1000);
}

static void print_second(int64_t at, const histogram *h) {
    printf("{\"t\": %lld, \"packets\": %llu, ", (long long)at, (unsigned long long)h->n);
    print_figures(stdout, "", "excess_us", h);
    printf("}\n");
    fflush(stdout);
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
    second_at = real_ns() / 1000000000;
    prctl(PR_SET_TIMERSLACK, 1UL);
    for (;;) {
        pthread_mutex_lock(&lock);
        while (head == tail) pthread_cond_wait(&filled, &lock);
        int64_t due = ring[head % RING].due;
        pthread_mutex_unlock(&lock);
        struct timespec at = {.tv_sec = due / 1000000000, .tv_nsec = due % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {}
        int64_t now = now_ns(), this_second = real_ns() / 1000000000;
        uint32_t last = 0;
        int to_print; /* a second ended: its line after the verdict, under the lock again only then */
        pthread_mutex_lock(&lock);
        if (this_second != second_at) {
            if (second.n && !ended_at) {
                ended = second;
                ended_at = second_at;
            }
            memset(&second, 0, sizeof second);
            second_at = this_second;
        }
        for (; head != tail && ring[head % RING].due <= now; head++) {
            last = ring[head % RING].id;
            int64_t excess = now - ring[head % RING].arrived - delay_ns;
            add(&second, excess);
            add(&total, excess);
        }
        to_print = ended_at != 0;
        pthread_mutex_unlock(&lock);
        struct nlmsghdr *nlh = nfq_nlmsg_put(buf, NFQNL_MSG_VERDICT_BATCH, queue_num);
        nfq_nlmsg_verdict_put(nlh, (int)last, NF_ACCEPT);
        if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
        if (to_print) { /* after the verdict: the line costs no packet its time */
            pthread_mutex_lock(&lock);
            if (ended_at) print_second(ended_at, &ended); /* unless the exit printed it */
            ended_at = 0;
            pthread_mutex_unlock(&lock);
        }
    }
    return NULL;
}

/* the read's two clocks: the kernel stamps in CLOCK_REALTIME, the ring runs on CLOCK_MONOTONIC */
struct read_at { int64_t mono, real; };

static int on_packet(const struct nlmsghdr *nlh, void *data) {
    struct nlattr *attr[NFQA_MAX + 1] = {0};
    if (nfq_nlmsg_parse(nlh, attr) < 0 || !attr[NFQA_PACKET_HDR]) return MNL_CB_OK;
    struct nfqnl_msg_packet_hdr *ph = mnl_attr_get_payload(attr[NFQA_PACKET_HDR]);
    const struct read_at *at = data;
    int64_t arrived = at->mono;
    if (attr[NFQA_TIMESTAMP]) {
        struct nfqnl_msg_packet_timestamp *ts = mnl_attr_get_payload(attr[NFQA_TIMESTAMP]);
        /* in whole microseconds: taken as the end of its microsecond, so that no packet leaves early */
        int64_t before = at->real - ((int64_t)be64toh(ts->sec) * 1000000000 + (int64_t)be64toh(ts->usec) * 1000 + 999);
        /* a stamp of this read's clock, at most a second old: anything else is no arrival time */
        if (before > -1000 && before < 1000000000) {
            arrived = at->mono - (before > 0 ? before : 0);
            stamped++;
        }
    }
    add(&lag, at->mono - arrived);
    pthread_mutex_lock(&lock);
    ring[tail % RING].id = ntohl(ph->packet_id);
    ring[tail % RING].arrived = arrived;
    ring[tail % RING].due = arrived + delay_ns;
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
    int64_t started = now_ns();
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
    /* a socket asking for receive timestamps turns the kernel's stamping on for every packet (a clock read each) */
    int stamping = socket(AF_INET, SOCK_DGRAM, 0), on = 1;
    if (stamping < 0 || setsockopt(stamping, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) < 0)
        perror("delayline: receive timestamps (packets arrive when read)");
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
        struct read_at at = {.mono = now_ns(), .real = real_ns()};
        if (mnl_cb_run(buf, (size_t)n, 0, 0, on_packet, &at) < 0) errors++;
    }
    pthread_mutex_lock(&lock);
    if (ended_at) print_second(ended_at, &ended);
    if (second.n) print_second(second_at, &second); /* the last second, cut short */
    /* its own CPU (both threads) over its life: neither side's cgroup holds it */
    struct rusage used;
    getrusage(RUSAGE_SELF, &used);
    double cpu_s = (double)(used.ru_utime.tv_sec + used.ru_stime.tv_sec)
                   + (double)(used.ru_utime.tv_usec + used.ru_stime.tv_usec) / 1e6;
    printf("{\"total\": true, \"packets\": %llu, \"stamped\": %llu, \"seconds\": %.3f, \"cpu_s\": %.3f, ",
           (unsigned long long)total.n, (unsigned long long)stamped, (double)(now_ns() - started) / 1e9, cpu_s);
    print_figures(stdout, "", "excess_us", &total);
    print_figures(stdout, ", ", "reader_lag_us", &lag);
    printf("}\n");
    fflush(stdout);
    fprintf(stderr, "delayline: queue %u, %lld us: %llu packets, at most %llu held, %llu held at exit, %lu overflows, "
            "%llu errors\n", queue_num, (long long)(delay_ns / 1000), (unsigned long long)packets,
            (unsigned long long)max_held, (unsigned long long)(tail - head), lost, (unsigned long long)errors);
    return 0;
}
