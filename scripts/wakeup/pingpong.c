/*
 * What one round trip between two processes costs this machine's kernel: a parent and a child pass 64 bytes back
 * and forth over a Unix stream socket (as BG's member and PostgreSQL's backend do, minus all the work), and the
 * parent prints the wall time and its own CPU time per round trip. Run it as is (the two may land on different
 * cores, which then go idle between messages) and under `taskset -c 0` (one core, no idle in between): the gap is the
 * price of waking an idle core, which BG's members pay for every reply that finds their core idle.
 * See docs/benchmarks.md, issue 20, "The machine's share of a round trip".
 *
 * Build and run: cc -O2 -o /tmp/pingpong scripts/wakeup/pingpong.c && /tmp/pingpong [round trips]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double cpu_seconds(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_utime.tv_usec * 1e-6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000;
    if (n <= 0) {
        fprintf(stderr, "round trips: a positive number, got %s\n", argv[1]);
        return 2;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        perror("socketpair");
        return 1;
    }
    char b[64] = {0};
    pid_t child = fork();
    if (child == 0) {
        for (long i = 0; i < n; i++) {
            if (read(sv[1], b, sizeof b) <= 0 || write(sv[1], b, sizeof b) != sizeof b) {
                _exit(1);
            }
        }
        _exit(0);
    }
    double c0 = cpu_seconds(), t0 = seconds();
    for (long i = 0; i < n; i++) {
        if (write(sv[0], b, sizeof b) != sizeof b || read(sv[0], b, sizeof b) <= 0) {
            perror("round trip");
            return 1;
        }
    }
    double wall = seconds() - t0, cpu = cpu_seconds() - c0;
    waitpid(child, NULL, 0);
    printf("%ld round trips: %.2f us wall, parent CPU %.2f us per round trip\n", n, wall / n * 1e6, cpu / n * 1e6);
    return 0;
}
