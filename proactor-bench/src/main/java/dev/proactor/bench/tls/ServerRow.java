package dev.proactor.bench.tls;

import dev.proactor.bench.server.netty.NettyTlsEchoServer;
import dev.proactor.bench.server.netty.NettyTransport;
import dev.proactor.bench.server.proactor.ProactorTlsEchoServer;
import java.util.ArrayList;
import java.util.List;

/**
 * One server of the TLS echo table: a bench-jar server name, the engine or transport it runs on, and the system
 * properties that select it.
 *
 * @param server     the bench-jar command, e.g. {@code proactor-tls}
 * @param transport  {@code nio} or {@code epoll}
 * @param properties JVM {@code -D} options
 */
public record ServerRow(String server, String transport, List<String> properties) {

    /** The transports the table can have, each with a proactor and a Netty row. */
    public static final List<String> TRANSPORTS = List.of("nio", "epoll");

    /**
     * Whether this is the Netty row a ratio is taken against.
     *
     * @return true for {@code netty-tls-*}
     */
    public boolean isBaseline() {
        return server.startsWith("netty-tls-");
    }

    /**
     * A label for logs and tables.
     *
     * @return e.g. {@code proactor-tls/epoll}
     */
    public String label() {
        return server + "/" + transport;
    }

    /**
     * The rows for some transports: the proactor row (strict engine, no fallback) then Netty's, per transport.
     *
     * @param transports subset of {@link #TRANSPORTS}
     * @return the rows
     */
    public static List<ServerRow> forTransports(List<String> transports) {
        List<ServerRow> rows = new ArrayList<>();
        for (String t : transports) {
            NettyTransport netty = switch (t) {
                case "nio" -> NettyTransport.NIO;
                case "epoll" -> NettyTransport.EPOLL;
                default -> throw new IllegalArgumentException("transport must be nio or epoll, was '" + t + "'");
            };
            rows.add(new ServerRow(ProactorTlsEchoServer.NAME, t,
                    List.of("-Dproactor.engine=" + t, "-Dproactor.strict=true")));
            rows.add(new ServerRow(NettyTlsEchoServer.serverName(netty), t, List.of()));
        }
        return rows;
    }
}
