/* The command line: usage, parsing and checks into cfg. */
#include "fairness.h"
#include "loadgen.h"
#include "pacing.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

struct config cfg = {
    .host = "127.0.0.1", .port = 0, .sessions = 1, .block = 512, .window = 0,
    .seconds = 10, .warmup = 5, .threads = 1, .ready_timeout = 60, .connect_batch = 256,
    .server_pid = 0,
    .coalesce = 0,
    .rate = 0,
    .reconnect = 0,
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: loadgen --port P [--host 127.0.0.1] [--sessions 1] [--block 512] [--window 0]\n"
            "               [--seconds 10] [--warmup 5] [--threads 1] [--ready-timeout 60]\n"
            "               [--connect-batch 256] [--server-pid PID] [--coalesce] [--rate 0]\n"
            "               [--reconnect]\n"
            "       loadgen --self-test\n"
            "  --window 0 = ping-pong (one block, wait for its echo); W = bytes in flight per session (>= block)\n"
            "  --server-pid PID adds server_cpu_pct, server_user_cpu_pct and other_user_cpu_pct to the RESULT line\n"
            "  --coalesce sends every whole block the window allows in one write (default: one write per block)\n"
            "  --rate R offers R blocks per second in total (0 = unpaced, as fast as the echoes come back):\n"
            "           session i of N may start a block at t0 + (i + k N) / R s, and only when its window\n"
            "           allows it (ping-pong: its previous echo is complete); a session behind its schedule\n"
            "           catches up by one window at most, it does not burst, and it keeps its place on its\n"
            "           grid (whole slots are dropped). One write per block (--coalesce\n"
            "           is ignored). RESULT ends with offered_msgs_per_s=R (0 when unpaced): compare msgs_per_s\n"
            "  --reconnect sends every block on a new connection (ping-pong only): once its echo is complete\n"
            "           the session closes the connection (FIN: the server sees the end of the stream) and\n"
            "           connects again; the next block goes when the connect completes (and, with --rate, its\n"
            "           slot has come). A message is then a connection: accept, read, write, close\n"
            "  --self-test checks the per-session fairness statistics and the pacing arithmetic, and exits\n");
}

/* --self-test: every pure part of the generator; 0 when all pass. */
static int self_test(void)
{
    int bad = fairness_self_test();
    int pacing_bad = pacing_self_test();
    fprintf(stderr, "loadgen: pacing self-test %s\n", pacing_bad ? "FAILED" : "ok");
    return bad | pacing_bad;
}

static int parse_int(const char *name, const char *v, int min)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < min || n > 1000000000L) {
        fprintf(stderr, "loadgen: --%s needs an integer >= %d, got '%s'\n", name, min, v);
        exit(64);
    }
    return (int)n;
}

void parse_args(int argc, char **argv)
{
    static const struct option opts[] = {
        { "host", required_argument, 0, 'h' },        { "port", required_argument, 0, 'p' },
        { "sessions", required_argument, 0, 's' },    { "block", required_argument, 0, 'b' },
        { "window", required_argument, 0, 'w' },      { "seconds", required_argument, 0, 'S' },
        { "warmup", required_argument, 0, 'W' },      { "threads", required_argument, 0, 't' },
        { "ready-timeout", required_argument, 0, 'r' }, { "connect-batch", required_argument, 0, 'c' },
        { "server-pid", required_argument, 0, 'P' }, { "coalesce", no_argument, 0, 'C' },
        { "self-test", no_argument, 0, 'T' }, { "help", no_argument, 0, 'H' },
        { "rate", required_argument, 0, 'R' },         { "reconnect", no_argument, 0, 'N' },
        { 0, 0, 0, 0 },
    };
    int c;
    int have_port = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'h': cfg.host = optarg; break;
        case 'p': cfg.port = parse_int("port", optarg, 1); have_port = 1; break;
        case 's': cfg.sessions = parse_int("sessions", optarg, 1); break;
        case 'b': cfg.block = parse_int("block", optarg, 1); break;
        case 'w': cfg.window = parse_int("window", optarg, 0); break;
        case 'S': cfg.seconds = parse_int("seconds", optarg, 1); break;
        case 'W': cfg.warmup = parse_int("warmup", optarg, 0); break;
        case 't': cfg.threads = parse_int("threads", optarg, 1); break;
        case 'r': cfg.ready_timeout = parse_int("ready-timeout", optarg, 1); break;
        case 'c': cfg.connect_batch = parse_int("connect-batch", optarg, 1); break;
        case 'P': cfg.server_pid = parse_int("server-pid", optarg, 1); break;
        case 'C': cfg.coalesce = 1; break;
        case 'R': cfg.rate = parse_int("rate", optarg, 0); break;
        case 'N': cfg.reconnect = 1; break;
        case 'T': exit(self_test());
        case 'H': usage(stdout); exit(0);
        default: usage(stderr); exit(64);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "loadgen: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        exit(64);
    }
    if (!have_port || cfg.port > 65535) {
        fprintf(stderr, "loadgen: --port 1..65535 is required\n");
        usage(stderr);
        exit(64);
    }
    if (cfg.window != 0 && cfg.window < cfg.block) {
        fprintf(stderr, "loadgen: --window %d is smaller than --block %d (use 0 for ping-pong)\n", cfg.window, cfg.block);
        exit(64);
    }
    if (cfg.reconnect && cfg.window != 0) {
        fprintf(stderr, "loadgen: --reconnect needs ping-pong (--window 0)\n");
        exit(64);
    }
    if (cfg.threads > cfg.sessions)
        cfg.threads = cfg.sessions;
}
