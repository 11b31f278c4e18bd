package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.NetworkChannel;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Socket options of the NIO.2 channels: the same set as the JDK's channels on this system, each one set and read
 * back on unconnected, connected and accepted channels (and listening ones), {@code SO_REUSEPORT} sharing a port,
 * and the JDK's errors for an unsupported option or a value of the wrong type. Run against both providers like
 * {@link AbstractNio2ChannelConformanceTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractNio2OptionConformanceTest {

    /** Row {@code NIO2_OPTION} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2Target> targets(TestInfo test) {
        return ConfigurationTable.providers(Suite.NIO2_OPTION, test);
    }

    private static final String NAME = "[{index}] {0}";

    /** Values to set, by option; buffer sizes read back at least as large, the others equal. */
    private static final Map<SocketOption<?>, Object> VALUES = Map.of(
            StandardSocketOptions.SO_SNDBUF, 96 * 1024,
            StandardSocketOptions.SO_RCVBUF, 80 * 1024,
            StandardSocketOptions.SO_KEEPALIVE, true,
            StandardSocketOptions.SO_REUSEADDR, true,
            StandardSocketOptions.SO_REUSEPORT, true,
            StandardSocketOptions.TCP_NODELAY, true,
            ExtendedSocketOptions.TCP_KEEPIDLE, 77,
            ExtendedSocketOptions.TCP_KEEPINTERVAL, 13,
            ExtendedSocketOptions.TCP_KEEPCOUNT, 5);

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void supportedOptionsAreThoseOfTheJdksChannels(Nio2Target target) throws Exception {
        AsynchronousChannelProvider jdk = AsynchronousChannelProvider.provider();
        try (Nio2Fixture f = new Nio2Fixture(target);
             AsynchronousSocketChannel jdkSocket = jdk.openAsynchronousSocketChannel(null);
             AsynchronousServerSocketChannel jdkServer = jdk.openAsynchronousServerSocketChannel(null)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "fixed");
            assertEquals(jdkSocket.supportedOptions(), f.socket(g).supportedOptions());
            assertEquals(jdkServer.supportedOptions(), f.server(g).supportedOptions());
            assertTrue(f.socket(g).supportedOptions().containsAll(VALUES.keySet()));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void everySocketOptionIsSetAndReadBackBeforeAndAfterConnecting(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "fixed");
            AsynchronousSocketChannel unconnected = f.socket(g);
            setAndCheckAll(unconnected);
            Nio2Fixture.Pair p = f.pair(g);
            for (AsynchronousSocketChannel ch : List.of(p.client(), p.accepted())) {
                setAndCheckAll(ch);
                ch.setOption(ExtendedSocketOptions.TCP_QUICKACK, true); // the kernel may clear it again: not read back
                assertNotNull(ch.getOption(ExtendedSocketOptions.TCP_QUICKACK));
                assertTrue(ch.getOption(ExtendedSocketOptions.SO_INCOMING_NAPI_ID) >= 0);
                ch.setOption(StandardSocketOptions.SO_KEEPALIVE, false);
                assertEquals(false, ch.getOption(StandardSocketOptions.SO_KEEPALIVE));
            }
            // Set before the connect, kept after it.
            AsynchronousSocketChannel configured = f.socket(g);
            configured.setOption(StandardSocketOptions.TCP_NODELAY, true);
            configured.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, 99);
            Nio2Fixture.get(configured.connect(p.server().getLocalAddress()));
            assertEquals(true, configured.getOption(StandardSocketOptions.TCP_NODELAY));
            assertEquals(99, configured.getOption(ExtendedSocketOptions.TCP_KEEPIDLE));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void listeningSocketOptionsAreSetAndReadBack(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousServerSocketChannel server =
                    f.track(f.provider.openAsynchronousServerSocketChannel(f.fixedGroup(1, "fixed")));
            for (SocketOption<?> o : server.supportedOptions()) {
                if (VALUES.containsKey(o)) {
                    setAndCheck(server, o);
                }
            }
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            setAndCheck(server, StandardSocketOptions.SO_RCVBUF);
            setAndCheck(server, ExtendedSocketOptions.TCP_KEEPCOUNT);
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void soReusePortLetsTwoListenersShareAPort(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "fixed");
            AsynchronousServerSocketChannel first = f.track(f.provider.openAsynchronousServerSocketChannel(g));
            first.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            first.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            AsynchronousServerSocketChannel second = f.track(f.provider.openAsynchronousServerSocketChannel(g));
            second.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            second.bind(first.getLocalAddress());
            assertEquals(first.getLocalAddress(), second.getLocalAddress());
            AsynchronousServerSocketChannel third = f.track(f.provider.openAsynchronousServerSocketChannel(g));
            assertThrows(BindException.class, () -> third.bind(first.getLocalAddress()));
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void anUnsupportedOptionOrAWrongValueIsRefused(Nio2Target target) throws Exception {
        try (Nio2Fixture f = new Nio2Fixture(target)) {
            AsynchronousChannelGroup g = f.fixedGroup(1, "fixed");
            for (NetworkChannel ch : List.<NetworkChannel>of(f.socket(g), f.server(g))) {
                assertThrows(UnsupportedOperationException.class,
                        () -> ch.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true));
                assertThrows(UnsupportedOperationException.class,
                        () -> ch.getOption(StandardSocketOptions.IP_MULTICAST_LOOP));
                assertThrows(IllegalArgumentException.class,
                        () -> ch.setOption(StandardSocketOptions.SO_RCVBUF, null));
                assertThrows(NullPointerException.class, () -> ch.getOption(null));
            }
        }
    }

    private static void setAndCheckAll(NetworkChannel ch) throws IOException {
        for (SocketOption<?> o : VALUES.keySet()) {
            setAndCheck(ch, o);
        }
    }

    @SuppressWarnings("unchecked")
    private static void setAndCheck(NetworkChannel ch, SocketOption<?> option) throws IOException {
        Object value = VALUES.get(option);
        ch.setOption((SocketOption<Object>) option, value);
        Object back = ch.getOption(option);
        if (value instanceof Integer v && (option == StandardSocketOptions.SO_SNDBUF
                || option == StandardSocketOptions.SO_RCVBUF)) {
            assertTrue((Integer) back >= v, () -> option + " read back " + back + " after setting " + v);
        } else {
            assertEquals(value, back, () -> option + " read back");
        }
    }
}
