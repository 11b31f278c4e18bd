package dev.proactor.bench.server.tomcat;

import dev.proactor.bench.server.BenchServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11Nio2Protocol;

/**
 * Embedded Tomcat on its NIO2 connector ({@link Http11Nio2Protocol}, built on {@code AsynchronousSocketChannel})
 * serving a directory with Tomcat's {@link DefaultServlet}: the same unchanged program runs on the JDK's NIO.2
 * provider or on this project's, chosen only by {@code java.nio.channels.spi.AsynchronousChannelProvider}. The
 * connector's worker pool (the executor its channel group runs handlers on) has {@code threads} threads.
 */
public final class TomcatHttpServer implements BenchServer {
    /** Name on the command line and in the ready line. */
    public static final String NAME = "tomcat-http";

    private final String host;
    private final int port;
    private final int threads;
    private final Path root;
    private Tomcat tomcat;
    private Path workDir;

    /**
     * Creates the server, not started.
     *
     * @param host    address to bind
     * @param port    port (0: any)
     * @param threads worker threads of the connector
     * @param root    directory served
     */
    public TomcatHttpServer(String host, int port, int threads, Path root) {
        this.host = host;
        this.port = port;
        this.threads = threads;
        this.root = root;
    }

    @Override
    public InetSocketAddress start() throws IOException {
        workDir = Files.createTempDirectory("tomcat-bench");
        tomcat = new Tomcat();
        tomcat.setBaseDir(workDir.toString());
        Connector connector = new Connector(Http11Nio2Protocol.class.getName());
        connector.setProperty("address", host);
        connector.setPort(port);
        connector.setProperty("maxThreads", Integer.toString(threads));
        connector.setProperty("minSpareThreads", Integer.toString(threads));
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setProperty("acceptCount", "4096");
        connector.setProperty("tcpNoDelay", "true");
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", root.toString());
        Tomcat.addServlet(context, "default", new DefaultServlet());
        context.addServletMapping("/", "default");
        try {
            tomcat.start();
        } catch (LifecycleException e) {
            throw new IOException("Tomcat did not start", e);
        }
        return new InetSocketAddress(host, connector.getLocalPort());
    }

    @Override
    public void stop() throws IOException {
        if (tomcat == null) {
            return;
        }
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IOException("Tomcat did not stop cleanly", e);
        } finally {
            deleteQuietly(workDir);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println(NAME + ": could not remove " + dir + ": " + e);
        }
    }
}
