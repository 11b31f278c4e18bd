/*
 * echo_server_common.h - what the C echo servers (epoll_echo, uring_echo) share: the command line, the stop
 * signals, the SO_REUSEPORT listeners of the threads and the per-message busy work. Each server defines
 * SERVER_NAME (the name in messages, e.g. "c-epoll") and PROGRAM (its executable's name) before including it.
 */
#ifndef ECHO_SERVER_COMMON_H
#define ECHO_SERVER_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

#define BACKLOG 4096

static const char *host = "127.0.0.1";
static int port = -1;
static int nthreads = 1;
static int delay_us = 0;

static void die(const char *what)
{
    fprintf(stderr, SERVER_NAME ": %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Busy work of --delay-us microseconds per message (0: none). */
static void spin(void)
{
    if (delay_us <= 0)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t deadline = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + (uint64_t)delay_us * 1000ull;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec >= deadline)
            return;
        cpu_relax();
    }
}

static int parse_int(const char *name, const char *v, int min, int max)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < min || n > max) {
        fprintf(stderr, SERVER_NAME ": --%s needs an integer in %d..%d, got '%s'\n", name, min, max, v);
        exit(64);
    }
    return (int)n;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: " PROGRAM " --port P [--host 127.0.0.1] [--threads T] [--delay-us D]\n");
}

static void parse_args(int argc, char **argv)
{
    static const struct option opts[] = {
        { "host", required_argument, 0, 'h' },   { "port", required_argument, 0, 'p' },
        { "threads", required_argument, 0, 't' }, { "delay-us", required_argument, 0, 'd' },
        { "help", no_argument, 0, 'H' },          { 0, 0, 0, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'h': host = optarg; break;
        case 'p': port = parse_int("port", optarg, 0, 65535); break;
        case 't': nthreads = parse_int("threads", optarg, 1, 1024); break;
        case 'd': delay_us = parse_int("delay-us", optarg, 0, 10000000); break;
        case 'H': usage(stdout); exit(0);
        default: usage(stderr); exit(64);
        }
    }
    if (optind < argc || port < 0) {
        fprintf(stderr, SERVER_NAME ": %s\n", optind < argc ? "unexpected argument" : "--port is required");
        usage(stderr);
        exit(64);
    }
}

static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
            fprintf(stderr, SERVER_NAME ": warning: cannot raise the fd limit: %s\n", strerror(errno));
    }
}

/* Blocks SIGTERM/SIGINT in every thread (main takes them with sigwait) and ignores SIGPIPE. */
static void block_stop_signals(sigset_t *stop_signals)
{
    sigemptyset(stop_signals);
    sigaddset(stop_signals, SIGTERM);
    sigaddset(stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static int open_listener(const struct sockaddr *addr, socklen_t len, int type_flags)
{
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC | type_flags, 0);
    if (fd < 0)
        die("socket");
    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0)
        die("setsockopt(SO_REUSEADDR/SO_REUSEPORT)");
    if (bind(fd, addr, len) < 0) {
        fprintf(stderr, SERVER_NAME ": cannot bind %s:%d: %s\n", host, port, strerror(errno));
        exit(1);
    }
    if (listen(fd, BACKLOG) < 0)
        die("listen");
    return fd;
}

/*
 * Opens one SO_REUSEPORT listener per thread on --host/--port (the kernel spreads connections over them); with
 * --port 0 the others share the port the kernel picked for the first, and port is set to it.
 */
static void open_listeners(int *lfds, int n, int type_flags)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
    struct addrinfo *ai;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &ai);
    if (rc != 0) {
        fprintf(stderr, SERVER_NAME ": cannot resolve %s: %s\n", host, gai_strerror(rc));
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        lfds[i] = open_listener(ai->ai_addr, ai->ai_addrlen, type_flags);
        if (i == 0 && port == 0) {
            struct sockaddr_storage bound;
            socklen_t blen = sizeof bound;
            if (getsockname(lfds[i], (struct sockaddr *)&bound, &blen) < 0)
                die("getsockname");
            port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                     : ((struct sockaddr_in *)&bound)->sin_port);
            if (ai->ai_family == AF_INET6)
                ((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons((uint16_t)port);
            else
                ((struct sockaddr_in *)ai->ai_addr)->sin_port = htons((uint16_t)port);
        }
    }
    freeaddrinfo(ai);
}

#endif
