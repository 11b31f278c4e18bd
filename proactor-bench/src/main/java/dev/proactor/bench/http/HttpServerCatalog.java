package dev.proactor.bench.http;

import dev.proactor.bench.harness.UsageException;
import dev.proactor.bench.http.HttpServerDefinition.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Every server the HTTP benchmark knows, in display order, and the default selection
 * ({@code proactor-http,netty-http,nginx}). {@code proactor-http} runs with the engine defaults
 * of {@code proactor-examples.jar}; {@code proactor-http-epoll} selects its native epoll engine;
 * {@code netty-http} uses Netty's native epoll transport, {@code netty-http-nio} its NIO one. {@code tomcat-nio2} is
 * embedded Tomcat on its NIO2 connector with the JDK's NIO.2 provider, {@code tomcat-nio2-on-proactor-E} the same
 * unchanged program on this project's provider over engine {@code E}.
 */
public final class HttpServerCatalog {
    /** The server every other is divided by in the report. */
    public static final String RATIO_BASELINE = "netty-http";

    private static final List<HttpServerDefinition> ALL = List.of(
            new HttpServerDefinition("proactor-http", Kind.PROACTOR, List.of(), List.of()),
            new HttpServerDefinition("proactor-http-epoll", Kind.PROACTOR, List.of("-Dproactor.engine=epoll"), List.of()),
            new HttpServerDefinition("netty-http", Kind.NETTY, List.of(), List.of("--transport", "epoll")),
            new HttpServerDefinition("netty-http-nio", Kind.NETTY, List.of(), List.of("--transport", "nio")),
            new HttpServerDefinition("tomcat-nio2", Kind.TOMCAT, List.of(), List.of()),
            tomcatOnProactor("nio"),
            tomcatOnProactor("epoll"),
            tomcatOnProactor("io_uring"),
            tomcatOnProactor("linux-aio"),
            new HttpServerDefinition("nginx", Kind.NGINX, List.of(), List.of()));

    /** The default selection. */
    public static final List<String> DEFAULT = List.of("proactor-http", "netty-http", "nginx");

    private HttpServerCatalog() {
    }

    private static HttpServerDefinition tomcatOnProactor(String engine) {
        return new HttpServerDefinition("tomcat-nio2-on-proactor-" + engine, Kind.TOMCAT, List.of(
                "-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider",
                "-Dproactor.engine=" + engine), List.of());
    }

    /**
     * Every server name, in display order.
     *
     * @return the names
     */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (HttpServerDefinition d : ALL) {
            names.add(d.name());
        }
        return names;
    }

    /**
     * Resolves names to definitions, keeping the catalog's display order.
     *
     * @param names server names
     * @return definitions
     * @throws UsageException for an unknown name
     */
    public static List<HttpServerDefinition> select(List<String> names) throws UsageException {
        for (String n : names) {
            if (ALL.stream().noneMatch(d -> d.name().equals(n))) {
                throw new UsageException("unknown server '" + n + "'; known: " + String.join(",", names()));
            }
        }
        List<HttpServerDefinition> out = new ArrayList<>();
        for (HttpServerDefinition d : ALL) {
            if (names.contains(d.name())) {
                out.add(d);
            }
        }
        return out;
    }
}
