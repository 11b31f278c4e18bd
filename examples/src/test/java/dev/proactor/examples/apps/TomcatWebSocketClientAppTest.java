package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.websocket.AsyncChannelGroupUtil;
import org.apache.tomcat.websocket.Constants;
import org.apache.tomcat.websocket.WsWebSocketContainer;
import org.apache.tomcat.websocket.server.WsSci;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tomcat 11's WebSocket client ({@link WsWebSocketContainer}) on whatever provider the JVM runs. The client is the
 * NIO.2 program here: it opens its {@code AsynchronousSocketChannel}s in a group of Tomcat's own made by
 * {@code AsynchronousChannelGroup.withCachedThreadPool} (so the provider property reaches it), connects and
 * handshakes with {@code Future}s, then keeps one read with a completion handler pending and writes frames with
 * timed gathering writes while that read waits. The server is embedded Tomcat on its NIO connector
 * ({@link Http11NioProtocol}, a {@code Selector}, not NIO.2), so every asynchronous channel in the test is the
 * client's.
 *
 * <p>Proves: 8 clients, each sending 96 messages without waiting for the echoes (text and binary, 0 B to 200 KiB,
 * on the frame-length boundaries; 7 sizes of 16 are bigger than the client's {@value #CLIENT_BUFFER}-byte read
 * buffer, so those come back in several reads) get every message back whole, in order and byte-exact; the server
 * echoed exactly that many; each client closes with a normal closure that both ends see; once the container is
 * destroyed, the clients' channel group (made by the provider in use) shuts down and terminates: every channel in
 * it was closed.
 */
@ExtendWith(ProviderUnderTest.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("apps")
class TomcatWebSocketClientAppTest {

    private static final int CLIENTS = 8;
    /** Client's read buffer and message buffers (Tomcat's default, set so the test does not depend on it). */
    private static final int CLIENT_BUFFER = 8192;
    /** Frame-length encodings' boundaries (125, 126, 65 535, 65 536), the client buffer's, and bigger ones. */
    private static final int[] SIZES = {0, 1, 125, 126, 127, 3_000, 8_191, 8_192, 8_193, 20_000, 65_535, 65_536,
        65_537, 100_000, 200 * 1024, 777};
    /** Each size sent 3 times as text and 3 times as binary by each client. */
    private static final int MESSAGES_PER_CLIENT = 6 * SIZES.length;
    /** Characters of the text messages: 1, 2 and 3 bytes each in UTF-8, none a surrogate. */
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,"
            + "éßøñЖЯλΩ€中文字";
    private static final long HANG_GUARD_SECONDS = 60;

    private static Tomcat tomcat;
    private static URI echoUri;
    private static final EchoEndpoint.Counters SERVER = new EchoEndpoint.Counters();

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        ProviderUnderTest.check();
        tomcat = new Tomcat();
        tomcat.setBaseDir(dir.toString());
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", dir.toString());
        TomcatNio2AppTest.quietLeakDetection(ctx);
        ctx.addServletContainerInitializer(new WsSci(), null); // the server side's WebSocket container and filter
        Tomcat.addServlet(ctx, "default", new DefaultServlet()); // a mapped path, so the upgrade filter runs
        ctx.addServletMapping("/", "default");
        tomcat.start();
        assertEquals(LifecycleState.STARTED, connector.getState(), "connector state");
        assertInstanceOf(Http11NioProtocol.class, connector.getProtocolHandler());
        ServerContainer server = (ServerContainer) ctx.getServletContext()
                .getAttribute(ServerContainer.class.getName());
        server.addEndpoint(ServerEndpointConfig.Builder.create(EchoEndpoint.class, "/echo")
                .configurator(new EchoEndpoint.Configurator(SERVER)).build());
        echoUri = URI.create("ws://127.0.0.1:" + connector.getLocalPort() + "/echo");
    }

    @AfterAll
    static void stop() throws Exception {
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    /**
     * 8 clients on one container send all their messages, then check the echoes (in the read handler, as they
     * arrive), then close: every message back byte-exact and in order, on both ends the exact counts and a
     * normal closure.
     */
    @Test
    void eightClientsGetEveryMessageBackByteExact() throws Exception {
        WsWebSocketContainer container = new WsWebSocketContainer();
        container.setDefaultMaxBinaryMessageBufferSize(CLIENT_BUFFER);
        container.setDefaultMaxTextMessageBufferSize(CLIENT_BUFFER);
        ClientEndpointConfig config = ClientEndpointConfig.Builder.create().build();
        config.getUserProperties().put(Constants.IO_TIMEOUT_MS_PROPERTY,
                String.valueOf(TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS))); // connect and handshake
        ExecutorService senders = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<CheckingClient> clients = new ArrayList<>();
            List<Session> sessions = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                CheckingClient client = new CheckingClient(c);
                clients.add(client);
                sessions.add(container.connectToServer(client, config, echoUri));
            }
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                RemoteEndpoint.Basic remote = sessions.get(c).getBasicRemote();
                sent.add(CompletableFuture.runAsync(() -> sendAll(client, remote), senders));
            }
            for (int c = 0; c < CLIENTS; c++) {
                sent.get(c).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
                assertEquals(MESSAGES_PER_CLIENT, clients.get(c).echoed.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS),
                        "messages client " + c + " got back byte-exact, in order");
            }
            for (Session s : sessions) {
                s.close(new CloseReason(CloseCodes.NORMAL_CLOSURE, "done"));
            }
            for (CheckingClient client : clients) {
                CloseReason reason = client.closed.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
                assertEquals(CloseCodes.NORMAL_CLOSURE, reason.getCloseCode(), "client's close: " + reason);
                assertEquals(MESSAGES_PER_CLIENT, client.received.get(), "messages the client received in all");
            }
            assertTrue(SERVER.closes.await(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "every server session closed");
            assertEquals(List.of(), List.copyOf(SERVER.errors), "server endpoint errors");
            assertEquals(List.of(), List.copyOf(SERVER.abnormalCloses), "server closes other than normal");
            assertEquals(CLIENTS * MESSAGES_PER_CLIENT, SERVER.messages.get(), "messages the server echoed");

            AsynchronousChannelGroup group = AsyncChannelGroupUtil.register(); // the clients' group, one more user
            container.destroy(); // one user fewer
            AsyncChannelGroupUtil.unregister(); // the last one: Tomcat shuts the group down
            assertEquals(AsynchronousChannelProvider.provider(), group.provider(), "provider of the clients' group");
            assertTrue(group.awaitTermination(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "the clients' group terminated");
        } finally {
            senders.shutdownNow();
            container.destroy(); // idempotent
        }
    }

    private static void sendAll(int client, RemoteEndpoint.Basic remote) {
        try {
            for (int i = 0; i < MESSAGES_PER_CLIENT; i++) {
                if (isText(i)) {
                    remote.sendText(text(client, i));
                } else {
                    remote.sendBinary(ByteBuffer.wrap(binary(client, i)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether message {@code i} is text; each size comes round as text and as binary in turn. */
    private static boolean isText(int i) {
        return (i + i / SIZES.length) % 2 == 1;
    }

    private static long seed(int client, int i) {
        return 1_000_000L * client + i;
    }

    /** Binary message {@code i} of {@code client}: reproducible random bytes. */
    private static byte[] binary(int client, int i) {
        return TestData.bytes(seed(client, i), SIZES[i % SIZES.length]);
    }

    /** Text message {@code i} of {@code client}: reproducible random characters from {@link #ALPHABET}. */
    private static String text(int client, int i) {
        byte[] random = binary(client, i);
        char[] chars = new char[random.length];
        for (int k = 0; k < random.length; k++) {
            chars[k] = ALPHABET.charAt((random[k] & 0xff) % ALPHABET.length());
        }
        return new String(chars);
    }

    /**
     * One client: reassembles each echoed message from the parts Tomcat hands over (a message bigger than the
     * client's buffer comes in several) and checks it against the one it sent with the same index. Tomcat calls
     * the handlers of one session one at a time, from the read's completion handler; the first mismatch fails
     * {@link #echoed} and ends the checks.
     */
    static final class CheckingClient extends Endpoint {
        private final int client;
        private final ByteArrayOutputStream binaryParts = new ByteArrayOutputStream();
        private final StringBuilder textParts = new StringBuilder();
        /** Completes with the number of messages checked once all have come back, or fails at the first wrong. */
        final CompletableFuture<Integer> echoed = new CompletableFuture<>();
        final CompletableFuture<CloseReason> closed = new CompletableFuture<>();
        final AtomicInteger received = new AtomicInteger();

        CheckingClient(int client) {
            this.client = client;
        }

        @Override
        public void onOpen(Session session, EndpointConfig config) {
            session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) (part, last) -> {
                byte[] b = new byte[part.remaining()];
                part.get(b);
                binaryParts.writeBytes(b);
                if (last) {
                    byte[] whole = binaryParts.toByteArray();
                    binaryParts.reset();
                    check(false, whole);
                }
            });
            session.addMessageHandler(String.class, (MessageHandler.Partial<String>) (part, last) -> {
                textParts.append(part);
                if (last) {
                    String whole = textParts.toString();
                    textParts.setLength(0);
                    check(true, whole);
                }
            });
        }

        private void check(boolean isText, Object message) {
            int i = received.getAndIncrement();
            if (echoed.isDone()) {
                return;
            }
            String where = "client " + client + ", message " + i + ": ";
            if (i >= MESSAGES_PER_CLIENT) {
                echoed.completeExceptionally(new AssertionError(where + "more messages than sent"));
            } else if (isText != isText(i)) {
                echoed.completeExceptionally(new AssertionError(where + (isText ? "text" : "binary") + " received"));
            } else if (!sameAsSent(i, message)) {
                echoed.completeExceptionally(new AssertionError(where + "content differs from what was sent"));
            } else if (i == MESSAGES_PER_CLIENT - 1) {
                echoed.complete(i + 1);
            }
        }

        private boolean sameAsSent(int i, Object message) {
            return isText(i) ? text(client, i).equals(message) : Arrays.equals(binary(client, i), (byte[]) message);
        }

        @Override
        public void onClose(Session session, CloseReason reason) {
            closed.complete(reason);
        }

        @Override
        public void onError(Session session, Throwable t) {
            AssertionError e = new AssertionError("client " + client + ": " + t, t);
            echoed.completeExceptionally(e);
            closed.completeExceptionally(e);
        }
    }

    /**
     * The server's endpoint: sends each part of a message back as it comes, as a part of the same message, with
     * the session's blocking sender (Tomcat calls a session's handlers one at a time). Counts what it echoed.
     */
    static final class EchoEndpoint extends Endpoint {
        private final Counters counters;

        EchoEndpoint(Counters counters) {
            this.counters = counters;
        }

        @Override
        public void onOpen(Session session, EndpointConfig config) {
            RemoteEndpoint.Basic remote = session.getBasicRemote();
            session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) (part, last) -> {
                try {
                    remote.sendBinary(part, last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                counters.partSent(last);
            });
            session.addMessageHandler(String.class, (MessageHandler.Partial<String>) (part, last) -> {
                try {
                    remote.sendText(part, last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                counters.partSent(last);
            });
        }

        @Override
        public void onClose(Session session, CloseReason reason) {
            if (reason.getCloseCode() != CloseCodes.NORMAL_CLOSURE) {
                counters.abnormalCloses.add(reason);
            }
            counters.closes.countDown();
        }

        @Override
        public void onError(Session session, Throwable t) {
            counters.errors.add(t);
        }

        /** What all the server's sessions did. */
        static final class Counters {
            final AtomicInteger messages = new AtomicInteger();
            final CountDownLatch closes = new CountDownLatch(CLIENTS);
            final Queue<CloseReason> abnormalCloses = new ConcurrentLinkedQueue<>();
            final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();

            void partSent(boolean last) {
                if (last) {
                    messages.incrementAndGet();
                }
            }
        }

        /** Makes each session's endpoint with the shared counters (Tomcat would need a no-argument constructor). */
        static final class Configurator extends ServerEndpointConfig.Configurator {
            private final Counters counters;

            Configurator(Counters counters) {
                this.counters = counters;
            }

            @Override
            public <T> T getEndpointInstance(Class<T> endpointClass) {
                return endpointClass.cast(new EchoEndpoint(counters));
            }
        }
    }
}
