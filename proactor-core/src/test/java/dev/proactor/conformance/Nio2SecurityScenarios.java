package dev.proactor.conformance;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.nio.charset.StandardCharsets;
import java.security.AccessControlContext;
import java.security.AccessController;
import java.security.Permissions;
import java.security.PrivilegedAction;
import java.security.ProtectionDomain;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The program {@link AbstractNio2SecurityManagerTest} runs in a JVM with a {@code SecurityManager}: a NIO.2
 * program whose own code holds only the socket permissions its policy grants it, so that the provider's permission
 * checks, and the work it must do privileged, are seen from a caller that lacks the rest. It uses the JVM's
 * provider ({@link AsynchronousChannelProvider#provider()}: the JDK's, or ours when the fork sets the provider
 * property), exactly as an unchanged program would.
 *
 * <p>Its code base is granted {@code connect} to 127.0.0.1, {@code accept} from 127.0.0.2 and (the JDK's default
 * policy) {@code listen} on ephemeral ports, nothing else: no system property, no 127.0.0.3. Each scenario prints
 * {@value #LINE} {@code name OK} or {@code name FAILED: reason}; the test asserts every line.
 */
public final class Nio2SecurityScenarios {

    static final String LINE = "SM-SCENARIO";
    static final String[] SCENARIOS = {
        "theDefaultGroupOpens", "anAllowedPeerIsAcceptedAndServed", "aDeniedPeerIsClosedAndTheListenerServesOn",
        "aDeniedConnectThrowsAndLeavesTheChannelUsable", "anUnresolvableLocalAddressIsHidden",
        "aPeerIsCheckedForTheCallerNotForTheGroupsThread", "aTaskRunsWithItsSubmittersPermissions",
    };

    private static final long WAIT_SECONDS = 30;
    private static final InetAddress ALLOWED_PEER = address(127, 0, 0, 2);
    private static final InetAddress DENIED = address(127, 0, 0, 3);
    private static final InetAddress LOCAL = address(127, 0, 0, 1);

    private Nio2SecurityScenarios() {
    }

    @SuppressWarnings("removal") // the SecurityManager is what this program tests
    public static void main(String[] args) throws Exception {
        if (System.getSecurityManager() == null) {
            throw new AssertionError("no SecurityManager: the fork must be started with -Djava.security.manager");
        }
        AsynchronousChannelProvider provider = AsynchronousChannelProvider.provider();
        System.out.println("provider " + provider.getClass().getName());
        ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "scenario-group");
            t.setDaemon(true);
            return t;
        };
        AsynchronousChannelGroup group = AsynchronousChannelGroup.withFixedThreadPool(1, daemons);
        try {
            run("theDefaultGroupOpens", Nio2SecurityScenarios::theDefaultGroupOpens);
            run("anAllowedPeerIsAcceptedAndServed", () -> anAllowedPeerIsAcceptedAndServed(group));
            run("aDeniedPeerIsClosedAndTheListenerServesOn", () -> aDeniedPeerIsClosedAndTheListenerServesOn(group));
            run("aDeniedConnectThrowsAndLeavesTheChannelUsable",
                    () -> aDeniedConnectThrowsAndLeavesTheChannelUsable(group));
            run("anUnresolvableLocalAddressIsHidden", () -> anUnresolvableLocalAddressIsHidden(group));
            run("aPeerIsCheckedForTheCallerNotForTheGroupsThread",
                    Nio2SecurityScenarios::aPeerIsCheckedForTheCallerNotForTheGroupsThread);
            run("aTaskRunsWithItsSubmittersPermissions", Nio2SecurityScenarios::aTaskRunsWithItsSubmittersPermissions);
        } finally {
            group.shutdownNow();
        }
    }

    /**
     * The group's thread has no permission at all (made under an empty access control context), the caller of
     * accept may accept from the peer: the accept, completed on the group's thread, succeeds, as the peer is
     * checked for the caller only.
     */
    private static void aPeerIsCheckedForTheCallerNotForTheGroupsThread() throws Exception {
        AsynchronousChannelGroup group = AsynchronousChannelGroup.withFixedThreadPool(1, powerlessThreads());
        try (AsynchronousServerSocketChannel listener = listen(group, LOCAL)) {
            Future<AsynchronousSocketChannel> accepted = listener.accept(); // pending: completes on the group
            try (SocketChannel client = connectFrom(ALLOWED_PEER, listener);
                 AsynchronousSocketChannel served = accepted.get(WAIT_SECONDS, TimeUnit.SECONDS)) {
                echoOnce(client, served);
            }
        } finally {
            group.shutdownNow();
        }
    }

    /** Opening a channel of the default group (made on first use) needs nothing of the caller. */
    private static void theDefaultGroupOpens() throws Exception {
        try (AsynchronousServerSocketChannel listener = AsynchronousServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(LOCAL, 0));
            check(listener.getLocalAddress() instanceof InetSocketAddress, "no local address");
        }
    }

    /** A peer the caller of accept may accept from is accepted; reads and writes on it work. */
    private static void anAllowedPeerIsAcceptedAndServed(AsynchronousChannelGroup group) throws Exception {
        try (AsynchronousServerSocketChannel listener = listen(group, LOCAL);
             SocketChannel client = connectFrom(ALLOWED_PEER, listener)) {
            try (AsynchronousSocketChannel served = listener.accept().get(WAIT_SECONDS, TimeUnit.SECONDS)) {
                InetSocketAddress remote = (InetSocketAddress) served.getRemoteAddress();
                check(remote.getAddress().equals(ALLOWED_PEER), "remote address " + remote);
                echoOnce(client, served);
            }
        }
    }

    /**
     * A peer the caller of accept may not accept from: the accept (Future or handler) fails with a
     * SecurityException, the connection is closed, and the listener accepts the next peer.
     */
    private static void aDeniedPeerIsClosedAndTheListenerServesOn(AsynchronousChannelGroup group) throws Exception {
        try (AsynchronousServerSocketChannel listener = listen(group, LOCAL)) {
            try (SocketChannel denied = connectFrom(LOCAL, listener)) {
                Future<AsynchronousSocketChannel> accepted = listener.accept();
                try {
                    accepted.get(WAIT_SECONDS, TimeUnit.SECONDS).close();
                    throw new AssertionError("accepted a peer the caller may not accept from");
                } catch (ExecutionException e) {
                    check(e.getCause() instanceof SecurityException, "accept failed with " + e.getCause());
                }
                checkClosedByPeer(denied);
            }
            try (SocketChannel denied = connectFrom(LOCAL, listener)) {
                CompletableFuture<Throwable> failure = new CompletableFuture<>();
                listener.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                    @Override
                    public void completed(AsynchronousSocketChannel ch, Void a) {
                        failure.complete(new AssertionError("accepted " + ch));
                    }

                    @Override
                    public void failed(Throwable e, Void a) {
                        failure.complete(e);
                    }
                });
                Throwable e = failure.get(WAIT_SECONDS, TimeUnit.SECONDS);
                check(e instanceof SecurityException, "the accept handler saw " + e);
                checkClosedByPeer(denied);
            }
            try (SocketChannel allowed = connectFrom(ALLOWED_PEER, listener);
                 AsynchronousSocketChannel served = listener.accept().get(WAIT_SECONDS, TimeUnit.SECONDS)) {
                echoOnce(allowed, served);
            }
        }
    }

    /** A connect the caller may not make throws SecurityException at once; the channel stays open and usable. */
    private static void aDeniedConnectThrowsAndLeavesTheChannelUsable(AsynchronousChannelGroup group)
            throws Exception {
        try (AsynchronousServerSocketChannel listener = listen(group, LOCAL);
             AsynchronousSocketChannel ch = AsynchronousSocketChannel.open(group)) {
            int port = port(listener.getLocalAddress());
            InetSocketAddress forbidden = new InetSocketAddress(DENIED, port);
            try {
                ch.connect(forbidden);
                throw new AssertionError("connected to " + forbidden);
            } catch (SecurityException expected) {
                // the Future variant
            }
            try {
                ch.connect(forbidden, null, new CompletionHandler<Void, Void>() {
                    @Override
                    public void completed(Void v, Void a) {
                    }

                    @Override
                    public void failed(Throwable e, Void a) {
                    }
                });
                throw new AssertionError("connected to " + forbidden);
            } catch (SecurityException expected) {
                // the handler variant
            }
            check(ch.isOpen(), "the channel was closed by a refused connect");
            ch.connect(new InetSocketAddress(LOCAL, port)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            check(ch.getRemoteAddress() != null, "not connected");
        }
    }

    /**
     * An address the caller may not resolve is hidden behind the loopback address (with the real port): a
     * listener's, and a connected channel's, before and after it connects.
     */
    private static void anUnresolvableLocalAddressIsHidden(AsynchronousChannelGroup group) throws Exception {
        try (AsynchronousServerSocketChannel hidden = listen(group, DENIED)) {
            checkHidden(hidden.getLocalAddress());
        }
        try (AsynchronousServerSocketChannel listener = listen(group, LOCAL);
             AsynchronousSocketChannel ch = AsynchronousSocketChannel.open(group)) {
            ch.bind(new InetSocketAddress(DENIED, 0));
            checkHidden(ch.getLocalAddress());
            ch.connect(listener.getLocalAddress()).get(WAIT_SECONDS, TimeUnit.SECONDS);
            checkHidden(ch.getLocalAddress());
        }
        try (AsynchronousServerSocketChannel listener = listen(group, LOCAL)) {
            InetSocketAddress shown = (InetSocketAddress) listener.getLocalAddress();
            check(shown.getAddress().equals(LOCAL), "a resolvable address was hidden: " + shown);
        }
    }

    /**
     * A task given to a group's {@code execute} (the JDK's groups are executors) runs with the permissions of the
     * code that submitted it, not those of the group's thread (here none): it may connect where the submitter
     * may, and may not where the submitter may not; on a fixed group and on an executor's.
     */
    private static void aTaskRunsWithItsSubmittersPermissions() throws Exception {
        AsynchronousChannelGroup fixed = AsynchronousChannelGroup.withFixedThreadPool(1, powerlessThreads());
        AsynchronousChannelGroup pooled = AsynchronousChannelGroup.withThreadPool(
                Executors.newCachedThreadPool(powerlessThreads()));
        try (AsynchronousServerSocketChannel listener = listen(fixed, LOCAL)) {
            int port = port(listener.getLocalAddress());
            for (AsynchronousChannelGroup group : new AsynchronousChannelGroup[] {fixed, pooled}) {
                Executor executor = (Executor) group;
                check(connectInTask(executor, new InetSocketAddress(LOCAL, port)) == null, "allowed connect failed");
                Throwable denied = connectInTask(executor, new InetSocketAddress(DENIED, port));
                check(denied instanceof SecurityException, "a denied connect in a task ended with " + denied);
            }
        } finally {
            fixed.shutdownNow();
            pooled.shutdownNow();
        }
    }

    /** Connects to {@code remote} in a task of {@code executor}; what the connect threw, or null. */
    private static Throwable connectInTask(Executor executor, InetSocketAddress remote) throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        executor.execute(() -> {
            try (SocketChannel ch = SocketChannel.open(remote)) {
                outcome.complete(ch.isConnected() ? null : new AssertionError("not connected"));
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        return outcome.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Makes daemon threads that have no permission at all (created under an empty access control context). */
    @SuppressWarnings("removal") // AccessController: the SecurityManager is what this program tests
    private static ThreadFactory powerlessThreads() {
        AccessControlContext nothing = new AccessControlContext(
                new ProtectionDomain[] {new ProtectionDomain(null, new Permissions())});
        return r -> AccessController.doPrivileged((PrivilegedAction<Thread>) () -> {
            Thread t = new Thread(r, "powerless-group");
            t.setDaemon(true);
            return t;
        }, nothing);
    }

    // ---------------------------------------------------------------- helpers

    private static AsynchronousServerSocketChannel listen(AsynchronousChannelGroup group, InetAddress address)
            throws IOException {
        return AsynchronousServerSocketChannel.open(group).bind(new InetSocketAddress(address, 0));
    }

    /** A blocking client bound to {@code source}, connected to {@code listener} (not yet accepted). */
    private static SocketChannel connectFrom(InetAddress source, AsynchronousServerSocketChannel listener)
            throws IOException {
        SocketChannel client = SocketChannel.open();
        try {
            client.bind(new InetSocketAddress(source, 0));
            client.connect(new InetSocketAddress(LOCAL, port(listener.getLocalAddress())));
            return client;
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The client sends four bytes, the served channel reads them and writes them back. */
    private static void echoOnce(SocketChannel client, AsynchronousSocketChannel served) throws Exception {
        byte[] ping = "ping".getBytes(StandardCharsets.US_ASCII);
        client.write(ByteBuffer.wrap(ping));
        ByteBuffer in = ByteBuffer.allocate(ping.length);
        while (in.hasRemaining()) {
            check(served.read(in).get(WAIT_SECONDS, TimeUnit.SECONDS) > 0, "end of stream on the served side");
        }
        in.flip();
        while (in.hasRemaining()) {
            served.write(in).get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        ByteBuffer back = ByteBuffer.allocate(ping.length);
        while (back.hasRemaining()) {
            check(client.read(back) > 0, "end of stream on the client");
        }
        check(new String(back.array(), StandardCharsets.US_ASCII).equals("ping"), "echoed " + back);
    }

    /** The server side closed the connection: the client reads the end of the stream or a reset. */
    private static void checkClosedByPeer(SocketChannel client) {
        try {
            int n = client.read(ByteBuffer.allocate(1));
            check(n == -1, "read " + n + " bytes from a connection that should be closed");
        } catch (IOException reset) {
            // closed with a reset: also closed
        }
    }

    private static void checkHidden(SocketAddress shown) {
        InetSocketAddress isa = (InetSocketAddress) shown;
        check(isa.getAddress().equals(InetAddress.getLoopbackAddress()) && isa.getPort() != 0,
                "an address the caller may not resolve was shown: " + shown);
    }

    private static int port(SocketAddress a) {
        return ((InetSocketAddress) a).getPort();
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new AssertionError(failure);
        }
    }

    private static InetAddress address(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private interface Scenario {
        void run() throws Exception;
    }

    private static void run(String name, Scenario scenario) {
        try {
            scenario.run();
            System.out.println(LINE + " " + name + " OK");
        } catch (Throwable t) {
            System.out.println(LINE + " " + name + " FAILED: " + t);
            t.printStackTrace(System.out);
        }
    }
}
