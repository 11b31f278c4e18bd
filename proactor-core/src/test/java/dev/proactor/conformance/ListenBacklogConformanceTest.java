package dev.proactor.conformance;

import static dev.proactor.conformance.ToolkitTesting.assumeAvailable;
import static dev.proactor.conformance.ToolkitTesting.loopback;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.toolkit.Acceptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The listen backlog a listening channel gets, read back from the kernel (Linux: the {@code Send-Q} that {@code ss}
 * shows for a listening socket is its backlog): a backlog of 0 means what it means to the JDK's
 * {@link ServerSocketChannel} (the oracle) on every engine, a positive one is kept, and the {@link Acceptor}'s default
 * is the most the system allows. Run by every engine module: a concrete subclass names its engine
 * ({@link EngineUnderTest}). Skipped where {@code ss} or {@code /proc/sys/net/core/somaxconn} is missing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ListenBacklogConformanceTest {

    /** Row {@code LISTEN_BACKLOG} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<ProactorConfig> configurations(TestInfo test) {
        return ConfigurationTable.configurations(Suite.LISTEN_BACKLOG, test);
    }

    private static final String NAME = "[{index}] {0}";

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aBacklogOfZeroIsTheJdksDefault(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        int jdk;
        try (ServerSocketChannel reference = ServerSocketChannel.open()) {
            reference.bind(loopback(0), 0);
            jdk = backlogOf((InetSocketAddress) reference.getLocalAddress());
        }
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             AsynchChannel server = AsynchChannel.openServer(demux, new AsynchHandler() { }, loopback(0), 0)) {
            assertEquals(jdk, backlogOf((InetSocketAddress) server.getLocalAddress()));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void aPositiveBacklogIsKept(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             AsynchChannel server = AsynchChannel.openServer(demux, new AsynchHandler() { }, loopback(0), 77)) {
            assertEquals(77, backlogOf((InetSocketAddress) server.getLocalAddress()));
        }
    }

    /**
     * A burst of clients connecting at once overflows a smaller backlog, and the kernel then drops their handshakes
     * (retried after a second or more): the Acceptor asks for the most, which the kernel caps at its limit.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("configurations")
    void theAcceptorsDefaultBacklogIsTheMostTheSystemAllows(ProactorConfig config) throws Exception {
        assumeAvailable(config);
        Path limit = Path.of("/proc/sys/net/core/somaxconn");
        assumeTrue(Files.isReadable(limit), "no " + limit);
        // Line by line: /proc reports a size of 0, and a read sized by it may stop short.
        int somaxconn = Integer.parseInt(Files.readAllLines(limit, StandardCharsets.US_ASCII).get(0).trim());
        try (Demultiplexor demux = Demultiplexor.open(config).start();
             Acceptor acceptor = Acceptor.builder(demux, loopback(0), () -> {
                 throw new AssertionError("no client connects");
             }).open()) {
            assertEquals(somaxconn, backlogOf(acceptor.localAddress()));
        }
    }

    /** The backlog of the listening socket at {@code address}, from {@code ss}; the test is skipped without it. */
    private static int backlogOf(InetSocketAddress address) throws IOException, InterruptedException {
        Process ss;
        try {
            ss = new ProcessBuilder("ss", "-ltnH", "sport = :" + address.getPort()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return abort("no ss (iproute2): " + e.getMessage());
        }
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assumeTrue(ss.waitFor() == 0 && out.startsWith("LISTEN"), "ss did not list the socket: " + out);
        String[] fields = out.split("\\s+"); // State Recv-Q Send-Q Local Peer: Send-Q is the backlog
        return Integer.parseInt(fields[2]);
    }
}
