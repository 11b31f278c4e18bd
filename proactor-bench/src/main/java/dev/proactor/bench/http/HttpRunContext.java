package dev.proactor.bench.http;

import dev.proactor.bench.harness.ContextLines;
import dev.proactor.bench.harness.MachineInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The context lines at the top of http-results.md: when, where, which tools, which command. */
final class HttpRunContext {
    private HttpRunContext() {
    }

    static List<String> describe(HttpBenchOptions o, HttpLauncher launcher, HttpEnvironment env, String[] argv)
            throws InterruptedException {
        List<String> lines = new ArrayList<>();
        lines.add(ContextLines.date());
        lines.add(ContextLines.machine());
        lines.add(launcher.pinning()
                ? "pinning: server on CPU " + o.serverCpus() + ", wrk on CPU " + o.clientCpus()
                + " (taskset); server and client share this machine and loopback, so absolute numbers are context only"
                : "pinning: none (" + (o.pin() ? "taskset not found" : "--no-pin") + "); server and wrk compete for CPUs");
        lines.add("Java servers: " + MachineInfo.javaVersion(o.java()) + " (" + o.java() + "), options `"
                + String.join(" ", o.jvmOptions()) + "`, " + o.threads() + " server thread(s)");
        lines.add("nginx: " + (env.nginx() == null ? "not run" : env.nginx().version() + " (" + env.nginx().executable()
                + "), generated config: worker_processes " + o.threads()
                + ", access_log off, sendfile on, keepalive_requests 10^9 (see logs/*.nginx.conf)"));
        lines.add(String.format(Locale.ROOT, "load: %s, -t%d -c%d, %d run(s) of %d s after a %d s warm-up in %d wrk run(s), "
                        + "keep-alive GET of one file per size", MachineInfo.firstLine(List.of(env.wrk().toString(), "-v")),
                o.wrkThreads(), o.connections(), o.runs(), o.seconds(), o.warmupSeconds(), o.warmupWaves()));
        List<String> sizes = new ArrayList<>();
        for (FileSize s : o.sizes()) {
            sizes.add(s.path() + " (" + s.bytes() + " B)");
        }
        lines.add("files: " + String.join(", ", sizes) + ", pseudo-random bytes in a temporary document root "
                + "(page cache warm after the response check)");
        lines.add("command: `java -jar proactor-bench.jar http-bench " + String.join(" ", argv) + "`");
        return lines;
    }
}
