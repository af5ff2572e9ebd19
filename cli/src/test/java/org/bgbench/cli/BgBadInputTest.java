package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input to every command: one clear line and exit code 2, in process. */
class BgBadInputTest extends BgCommandFixture {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "unknown store          | load --store nosuch                                   | unknown store 'nosuch'",
                "unknown key            | load --store memory -p usercont=10                    | usercont: unknown parameter (did you mean usercount?)",
                "phi >= M               | load --store memory -p usercount=50 -p friendcountperuser=50 | less than the number of members",
                "negative size          | load --store memory -p resourcecountperuser=-3        | resourcecountperuser: must be 0 or more",
                "negative image size    | load --store memory -p thumbnailbytes=-3             | thumbnailbytes",
                "missing property file  | load --store memory -P /nonexistent/bg.properties    | no such property file",
                "unknown workload       | run --store memory --workload nosuch                  | --workload: 'nosuch' is neither a file nor a named mix",
                "T < 1                  | run --store memory --threads 0 -p usercount=200 -p friendcountperuser=4 | T must be at least 1",
                "bad duration           | run --store memory --duration soon -p usercount=200 -p friendcountperuser=4 | --duration",
                "sum not 100            | run --store memory -p ViewProfileAction=0.5 -p ListFriendsAction=0.2 -p usercount=200 -p friendcountperuser=4 | sum",
                "unknown action key     | run --store memory -p ViewProfilAction=1 -p usercount=200 -p friendcountperuser=4 | ViewProfilAction",
                "dzipf workers          | dzipf --workers 0                                     | --workers: must be a count",
                "dzipf too many workers | dzipf -M 10 --workers 11                              | --workers: needs at least one member per worker",
                "dzipf theta > 1        | dzipf --theta 1.5                                     | --theta: θ must be from 0 (most skewed) to 1 (uniform)",
                "bad validation flag    | run --store memory -p validation=maybe -p usercount=200 -p friendcountperuser=4 | validation: expected true or false",
                "bad validation memory  | run --store memory -p validation.memory=lots -p usercount=200 -p friendcountperuser=4 | validation.memory: expected a size",
                "memory store too big   | load --store memory -p usercount=50000000             | usercount: the memory store would need about",
                "int too large          | load --store memory -p usercount=3000000000           | usercount: 3000000000 is too large: at most 2,147,483,647",
                "long too large         | run --store memory -p operationcount=99999999999999999999 -p usercount=200 -p friendcountperuser=4 | is too large",
                "operations 0           | run --store memory --operations 0 -p usercount=200 -p friendcountperuser=4 | --operations: must be at least 1, or omit it for a run bounded by --duration; got 0",
                "operations negative    | run --store memory --operations -5 -p usercount=200 -p friendcountperuser=4 | --operations: must be at least 1",
                "operationcount negative| run --store memory -p operationcount=-1 -p usercount=200 -p friendcountperuser=4 | operationcount: must be 0 or more, got -1",
                "duration 0             | run --store memory --duration 0s -p usercount=200 -p friendcountperuser=4 | --duration: must be longer than 0, got 0s",
                "quickstart duration 0  | quickstart --store memory --duration 0s --no-rate -p usercount=200 -p friendcountperuser=4 | --duration: must be longer than 0, got 0s",
                "rate max-threads 0     | rate --store memory --max-threads 0 -p usercount=200 -p friendcountperuser=4 | --max-threads: must be at least 1, got 0",
                "rate climbing factor 1 | rate --store memory --climbing-factor 1 -p usercount=200 -p friendcountperuser=4 | --climbing-factor: the climbing factor r must be a number above 1",
                "rate max-rate 0        | rate --store memory --model open --max-rate 0 -p usercount=200 -p friendcountperuser=4 | --max-rate: must be a rate above 0 and at most 1,000,000,000 per second, got 0.0",
                "rate max-rate too high | rate --store memory --model open --max-rate 1e12 -p usercount=200 -p friendcountperuser=4 | --max-rate: must be a rate above 0 and at most 1,000,000,000 per second",
                "rate unit above max    | rate --store memory --model open --rate-unit 500 --max-rate 100 -p usercount=200 -p friendcountperuser=4 | --max-rate: is below the search's first step, --rate-unit 500.0",
                "arrivals too high      | run --store memory --arrivals 1e12 --duration 1s -p usercount=200 -p friendcountperuser=4 | --arrivals: '1e12': the rate must be at most 1,000,000,000 arrivals per second",
                "breakeven threads 0    | breakeven a.json b.json --threads 0                   | --threads: T must be at least 1, got 0",
                "warmup count negative  | run --store memory --warmup -5 -p usercount=200 -p friendcountperuser=4 | --warmup: must be 0 or more: a time (10s) or a request count (500), got '-5'",
                "warmup key negative    | run --store memory -p warmup=-5 -p usercount=200 -p friendcountperuser=4 | warmup: must be 0 or more: a whole number of requests (1000) or a time with a unit (30s, 2m), got '-5'",
                "load threads 0         | load --store memory --threads 0 -p usercount=200 -p friendcountperuser=4 | --threads: must be at least 1, got 0",
                "generate threads 0     | generate --threads 0 -p usercount=200 -p friendcountperuser=4 | --threads: must be at least 1, got 0",
                "generate writes < 0    | generate --writes -1 -p usercount=200 -p friendcountperuser=4 | --writes: must be 0 or more, got -1",
                "picocli conversion     | run --store memory --threads many -p usercount=200     | Invalid value for option '--threads'",
                "unknown option         | run --store memory --thread 4                          | Unknown options: '--thread', '4'",
                "beta not positive      | run --store memory --beta 0s -p usercount=200 -p friendcountperuser=4 | --beta: β must be longer than 0",
                "bad tau                | run --store memory -p tau=200 -p usercount=200 -p friendcountperuser=4 | tau: expected a percentage",
                "validate no run        | validate /nonexistent/run.json                       | no such result file or run directory",
                "bad sla                | rate --store memory --sla 120%:100ms:0.01%:10s         | --sla",
                "bad rate target        | rate --store memory --target fastest                  | --target: expected soar, socialites or both",
                "delta longer than sla  | rate --store memory --sla 95%:100ms:0.01%:5s --delta 10s | --delta",
                "needs pending          | run --store memory -p AcceptFriendReqAction=0.5 -p ViewProfileAction=0.5 -p usercount=200 -p friendcountperuser=4 | no pending invitation",
                "worker empty secret    | worker --listen 127.0.0.1:0 --secret=                  | --secret: the secret has 0 characters; at least 16 are needed",
                "worker short secret    | worker --listen 127.0.0.1:0 --secret fifteen-chars-x   | --secret: the secret has 15 characters; at least 16 are needed",
                "worker secret and file | worker --listen 127.0.0.1:0 --secret sixteen-characters --secret-file f | --secret: give either --secret or --secret-file",
                "worker cert, no key    | worker --listen 127.0.0.1:0 --secret sixteen-characters --tls-cert c.pem | --tls-key: --tls-cert and --tls-key go together",
                "worker bad listen      | worker --listen foo --secret s                         | --listen: expected HOST:PORT",
                "worker bad port        | worker --listen 127.0.0.1:99999 --secret s             | --listen: the port must be 0..65535",
                "workers without secret | run --store memory --workers 127.0.0.1:1 --secret= -p usercount=200 -p friendcountperuser=4 | --secret",
                "workers no secret file | run --store memory --workers 127.0.0.1:1 --secret-file /nonexistent/bg.secret -p usercount=200 -p friendcountperuser=4 | --secret-file: no such file: /nonexistent/bg.secret",
                "workers short secret   | shutdown --workers 127.0.0.1:1 --secret short        | --secret: the secret has 5 characters",
                "workers bad pin        | shutdown --workers 127.0.0.1:1 --secret sixteen-characters --tls-pin AB:CD | --tls-pin: expected a certificate",
                "workers pin and ca     | shutdown --workers 127.0.0.1:1 --secret sixteen-characters --tls-pin AB --tls-ca ca.pem | --tls-pin: give either --tls-pin or --tls-ca",
                "bad workers address    | run --store memory --workers nonsense --secret sixteen-characters -p usercount=200 -p friendcountperuser=4 | --workers",
                "bad worker rates       | run --store memory --workers 127.0.0.1:1,127.0.0.1:2 --worker-rates 1 --secret s -p usercount=200 -p friendcountperuser=4 | --worker-rates",
                "store host no host     | run --store memory --store-host :9100 -p usercount=200 -p friendcountperuser=4 | --store-host: expected HOST or HOST:PORT",
                "store host bad port    | rate --store memory --store-host db1:70000 -p usercount=200 -p friendcountperuser=4 | --store-host: expected HOST or HOST:PORT (port 1..65535, default 9100), got 'db1:70000'",
                "run out in /proc       | run --store memory --out /proc/bg-run.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/bg-run.json is in /proc, a system directory",
                "run out a system file  | run --store memory --out /proc/cpuinfo -p usercount=200 -p friendcountperuser=4 | --out: /proc/cpuinfo is in /proc, a system directory",
                "rate out a system dir  | rate --store memory --out /sys/bg-rating -p usercount=200 -p friendcountperuser=4 | --out: /sys/bg-rating is in /sys, a system directory",
                "sweep out /proc        | sweep --store memory --threads 1 --out /proc/bg.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/bg.json is in /proc, a system directory",
                "delta out /proc        | delta --store memory --out /proc/bg-delta.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/bg-delta.json is in /proc, a system directory",
                "elasticity out /proc   | elasticity --store memory --nodes 1 --out /proc/e.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/e.json is in /proc, a system directory",
                "quickstart out /sys    | quickstart --out /sys/bg                               | --out: /sys/bg is in /sys, a system directory",
                "breakeven json /proc   | breakeven a.json b.json --json /proc/be.json           | --json: /proc/be.json is in /proc, a system directory",
                "deck listen no port    | deck --listen nohost                                   | --listen: expected HOST:PORT with a port 0..65535",
                "deck listen bad port   | deck --listen 127.0.0.1:70000                          | --listen: expected HOST:PORT with a port 0..65535 (0: any free one), e.g. 127.0.0.1:7878; got '127.0.0.1:70000'",
                "deck listen no host    | deck --listen :7878                                    | --listen: expected HOST:PORT",
                "deck empty token       | deck --listen 127.0.0.1:0 --token=                     | --token: must not be empty",
                "deck short token       | deck --listen 0.0.0.0:0 --token fifteen-chars-x        | --token: the token has 15 characters; at least 16 are needed",
                "deck token odd chars   | deck --listen 127.0.0.1:0 --token sixteen;characters   | --token: letters, digits",
                "deck allow-host a URL  | deck --listen 127.0.0.1:0 --allow-host http://bench.example | --allow-host: expected a host name such as bench.example.org",
                "deck allow-host a port | deck --listen 127.0.0.1:0 --allow-host bench.example:80 | --allow-host: expected a host name",
                "deck runs not a dir    | deck --listen 127.0.0.1:0 --runs /dev/null              | --runs: not a directory: /dev/null",
                "deck address not ours  | deck --listen 192.0.2.1:0 --token sixteen-characters   | --listen: cannot listen on 192.0.2.1:0",
            })
    void badInputGetsOneClearLineAndExitCode2(String what, String args, String message) {
        int code = bg(args.trim().split("\\s+"));
        assertThat(code).as(what + ": " + err).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains(message.trim())
                .doesNotContain("\tat ")
                .doesNotContain("Usage:");
        // One line of error (picocli may add one line of suggestions for a mistyped command).
        assertThat(err.toString()
                        .lines()
                        .filter(l -> l.startsWith("bg: error:"))
                        .count())
                .isEqualTo(1);
    }
}
