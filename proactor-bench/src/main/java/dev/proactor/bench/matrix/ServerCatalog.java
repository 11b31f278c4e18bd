package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.UsageException;
import dev.proactor.bench.matrix.ServerDefinition.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Every server the matrix knows, in display order, and the default selections.
 *
 * <p>The project's servers map to system properties of {@code proactor-examples.jar}:
 * {@code proactor-nio-W} is engine {@code nio} with wait strategy {@code W}
 * ({@code epoll}, {@code poll}, {@code busy}); {@code -dedicated} adds
 * {@code proactor.leader=dedicated}; {@code proactor-epoll}, {@code proactor-io_uring} and
 * {@code proactor-linux-aio} are the native engines (the last serves sockets with epoll and files with kernel AIO);
 * {@code proactor-io_uring-owner} adds {@code proactor.leader=owner} (one pool thread owns a single-issuer ring),
 * {@code -owner-coalesce} also completion coalescing, {@code proactor-io_uring-batched} never tries an operation at
 * start.
 * {@code nio2-on-proactor-E} is the unchanged {@code jdk-nio2} program (plain {@code java.nio.channels} code) run on
 * this project's NIO.2 provider over engine {@code E}, switched on by system property only.
 */
public final class ServerCatalog {
    /** Baselines the Markdown report divides by, when they ran. */
    public static final List<String> RATIO_BASELINES = List.of("netty-nio", "netty-epoll", "jdk-nio2");

    /** The project's NIO.2 provider class, named by the JDK's provider property. */
    static final String NIO2_PROVIDER = "dev.proactor.nio2.ProactorAsynchronousChannelProvider";

    private static final List<ServerDefinition> ALL = List.of(
            proactor("proactor-nio-epoll", "nio", "epoll", null),
            proactor("proactor-nio-poll", "nio", "poll", null),
            proactor("proactor-nio-busy", "nio", "busy-poll", null),
            proactor("proactor-nio-epoll-dedicated", "nio", "epoll", "dedicated"),
            new ServerDefinition("proactor-epoll", Kind.PROACTOR, List.of("-Dproactor.engine=epoll")),
            new ServerDefinition("proactor-io_uring", Kind.PROACTOR, List.of("-Dproactor.engine=io_uring")),
            // The A/B of the multishot receive: the bench's echo reads into one direct buffer, which the default
            // (heap) receives into directly; "all" receives through the provided-buffer ring's multishot RECV.
            new ServerDefinition("proactor-io_uring-multishot", Kind.PROACTOR,
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotRecv=all")),
            // The same A/B for heap buffers (the NIO.2 provider's and Tomcat's usual reads): "-heap" arms the
            // multishot receive, "-singleshot" posts a RECV per read (the engine's default), whatever the default.
            new ServerDefinition("proactor-io_uring-heap", Kind.PROACTOR, "echo-server",
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotRecv=heap"), List.of("--heap")),
            new ServerDefinition("proactor-io_uring-heap-singleshot", Kind.PROACTOR, "echo-server",
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotRecv=off"), List.of("--heap")),
            // The A/B of receive bundles, whatever the default: heap reads with room for four blocks of the ring (64
            // KiB), for messages larger than a block (costs --block); "-bundle" fills several blocks per read,
            // "-nobundle" one.
            new ServerDefinition("proactor-io_uring-heap-bundle", Kind.PROACTOR, "echo-server",
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotRecv=off",
                            "-Dproactor.uring.recvBundle=true"), List.of("--heap", "--buffer", "65536")),
            new ServerDefinition("proactor-io_uring-heap-nobundle", Kind.PROACTOR, "echo-server",
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotRecv=off",
                            "-Dproactor.uring.recvBundle=false"), List.of("--heap", "--buffer", "65536")),
            // The A/B of the multishot accept, whatever the default: one armed accept per listener, or an ACCEPT per
            // accept (run with costs --reconnect, where every message is a connection).
            new ServerDefinition("proactor-io_uring-multishot-accept", Kind.PROACTOR,
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotAccept=true")),
            new ServerDefinition("proactor-io_uring-single-accept", Kind.PROACTOR,
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.multishotAccept=false")),
            new ServerDefinition("proactor-io_uring-owner", Kind.PROACTOR,
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.leader=owner")),
            // The A/B of trying a read or write on its socket at start: "-batched" never does, every SQE waits
            // for the leader's next enter (as Netty io_uring's does).
            new ServerDefinition("proactor-io_uring-batched", Kind.PROACTOR,
                    List.of("-Dproactor.engine=io_uring", "-Dproactor.uring.tryFirst=false")),
            // Completion coalescing (off by default; a single-issuer ring only): the owner's wait holds out up to
            // 200 us for 64 completions.
            new ServerDefinition("proactor-io_uring-owner-coalesce", Kind.PROACTOR, List.of("-Dproactor.engine=io_uring",
                    "-Dproactor.leader=owner", "-Dproactor.uring.batchWaitMicros=200",
                    "-Dproactor.uring.batchWaitCompletions=64")),
            new ServerDefinition("proactor-linux-aio", Kind.PROACTOR, List.of("-Dproactor.engine=linux-aio")),
            bench("netty-nio"),
            bench("netty-epoll"),
            bench("netty-io_uring"),
            bench("jdk-nio2"),
            nio2OnProactor("nio"),
            nio2OnProactor("epoll"),
            nio2OnProactor("io_uring"),
            nio2OnProactor("linux-aio"),
            bench("tp-reactor"),
            bench("hsha"),
            bench("thread-per-conn"),
            bench("thread-per-conn-virtual"),
            new ServerDefinition("c-epoll", Kind.NATIVE_C, "epoll_echo", List.of()),
            new ServerDefinition("c-io_uring", Kind.NATIVE_C, "uring_echo", List.of()));

    private static final List<String> QUICK_DEFAULT = List.of(
            "proactor-nio-epoll", "proactor-epoll", "netty-nio", "netty-epoll", "jdk-nio2", "tp-reactor", "c-epoll");

    private ServerCatalog() {
    }

    private static ServerDefinition bench(String name) {
        return new ServerDefinition(name, Kind.BENCH_JAVA, List.of());
    }

    /** The {@code jdk-nio2} server on {@code dev.proactor.nio2.ProactorAsynchronousChannelProvider} over an engine. */
    private static ServerDefinition nio2OnProactor(String engine) {
        return new ServerDefinition("nio2-on-proactor-" + engine, Kind.BENCH_JAVA, "jdk-nio2", List.of(
                "-Djava.nio.channels.spi.AsynchronousChannelProvider=" + NIO2_PROVIDER,
                "-Dproactor.engine=" + engine));
    }

    private static ServerDefinition proactor(String name, String engine, String wait, String leader) {
        List<String> props = new ArrayList<>();
        props.add("-Dproactor.engine=" + engine);
        props.add("-Dproactor.waitStrategy=" + wait);
        if (leader != null) {
            props.add("-Dproactor.leader=" + leader);
        }
        return new ServerDefinition(name, Kind.PROACTOR, props);
    }

    /**
     * All servers.
     *
     * @return every definition in display order
     */
    public static List<ServerDefinition> all() {
        return ALL;
    }

    /**
     * The names of all servers.
     *
     * @return every name in display order, a new list
     */
    public static List<String> names() {
        return namesOf(ALL);
    }

    /**
     * The default servers for a preset.
     *
     * @param preset quick or full
     * @return names
     */
    public static List<String> defaults(Preset preset) {
        return preset == Preset.QUICK ? QUICK_DEFAULT : names();
    }

    /**
     * Resolves names to definitions, keeping the catalog's display order.
     *
     * @param names server names
     * @return definitions
     * @throws UsageException for an unknown name
     */
    public static List<ServerDefinition> select(List<String> names) throws UsageException {
        for (String n : names) {
            if (ALL.stream().noneMatch(d -> d.name().equals(n))) {
                throw new UsageException("unknown server '" + n + "'; known: " + String.join(",", namesOf(ALL)));
            }
        }
        List<ServerDefinition> out = new ArrayList<>();
        for (ServerDefinition d : ALL) {
            if (names.contains(d.name())) {
                out.add(d);
            }
        }
        return out;
    }

    private static List<String> namesOf(List<ServerDefinition> defs) {
        List<String> names = new ArrayList<>();
        for (ServerDefinition d : defs) {
            names.add(d.name());
        }
        return names;
    }
}
