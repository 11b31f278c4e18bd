package dev.proactor.bench.jmh;

import dev.proactor.bench.server.TlsCredentials;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the JDK's {@link SSLEngine} costs per record with the ciphertext in direct or in heap buffers: two engines
 * in memory (no sockets), after their TLS 1.3 handshake; one invocation is an echo of one block of plaintext,
 * i.e. two wraps and two unwraps, the plaintext always on the heap as a typical handler's. {@code TlsChannel}
 * hands its ciphertext buffers to the socket, so which kind they are decides the copies on both sides of the
 * engine; this benchmark isolates the engine's side.
 *
 * <pre>{@code java -jar proactor-bench/target/benchmarks.jar TlsRecordBenchmark -prof gc}</pre>
 */
@State(Scope.Thread)
public class TlsRecordBenchmark {

    /**
     * Where the engines see the ciphertext, and the copies to and from the direct buffer a socket would use:
     * {@code direct} (wrap into it, unwrap from it), {@code heap} (heap only, no copy: as if the socket took heap
     * buffers for free), {@code heap-wrap} (wrap into a heap buffer, copy it into the direct one, unwrap from
     * that), {@code heap-unwrap} (wrap into the direct buffer, copy it into a heap one, unwrap from that),
     * {@code heap-both} (both copies).
     */
    @Param({"direct", "heap", "heap-wrap", "heap-unwrap", "heap-both"})
    public String ciphertext;

    /** Plaintext bytes per block. */
    @Param({"1024", "16384"})
    public int block;

    private SSLEngine client;
    private SSLEngine server;
    private ByteBuffer clientNet;
    private ByteBuffer serverNet;
    /** What each engine wraps into, the socket's buffer, what each engine unwraps from (maybe all the same). */
    private ByteBuffer wrapped;
    private ByteBuffer socket;
    private ByteBuffer unwrapped;
    private ByteBuffer plaintext;
    private ByteBuffer atServer;
    private ByteBuffer received;

    /**
     * Makes the two engines and runs their handshake in memory.
     *
     * @throws Exception when the credentials or the handshake fail
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        TlsCredentials credentials = TlsCredentials.temporary();
        server = TlsCredentials.serverEngine(credentials.serverContext());
        SSLContext clientContext = credentials.clientContext();
        client = clientContext.createSSLEngine("localhost", 443);
        client.setUseClientMode(true);
        int packet = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
        clientNet = ByteBuffer.allocate(2 * packet);
        serverNet = ByteBuffer.allocate(2 * packet);
        socket = ciphertext.equals("heap") ? ByteBuffer.allocate(2 * packet) : ByteBuffer.allocateDirect(2 * packet);
        boolean heapWrap = ciphertext.equals("heap-wrap") || ciphertext.equals("heap-both");
        boolean heapUnwrap = ciphertext.equals("heap-unwrap") || ciphertext.equals("heap-both");
        wrapped = heapWrap ? ByteBuffer.allocate(2 * packet) : socket;
        unwrapped = heapUnwrap ? ByteBuffer.allocate(2 * packet) : socket;
        int room = Math.max(block, client.getSession().getApplicationBufferSize());
        plaintext = ByteBuffer.allocate(block);
        atServer = ByteBuffer.allocate(room);
        received = ByteBuffer.allocate(room);
        handshake();
        clientNet.clear();
        serverNet.clear();
    }

    /**
     * One echo: the client encrypts a block, the server decrypts it, encrypts it back, the client decrypts it.
     *
     * @return the plaintext bytes the client got back
     * @throws SSLException when an engine fails
     */
    @Benchmark
    public int echo() throws SSLException {
        plaintext.clear();
        atServer.clear();
        transfer(client, plaintext, server, atServer);
        atServer.flip();
        received.clear();
        transfer(server, atServer, client, received);
        return received.position();
    }

    /**
     * Wraps all of {@code src} with {@code from} and unwraps it with {@code to} into {@code dst}, the ciphertext
     * moving through the socket's buffer.
     */
    private void transfer(SSLEngine from, ByteBuffer src, SSLEngine to, ByteBuffer dst) throws SSLException {
        while (src.hasRemaining()) {
            wrapped.clear();
            from.wrap(src, wrapped);
            wrapped.flip();
            if (wrapped != socket) {
                socket.clear();
                socket.put(wrapped).flip();
            }
            if (unwrapped != socket) {
                unwrapped.clear();
                unwrapped.put(socket).flip();
            }
            while (unwrapped.hasRemaining()) {
                to.unwrap(unwrapped, dst);
            }
        }
    }

    private void handshake() throws SSLException {
        client.beginHandshake();
        server.beginHandshake();
        ByteBuffer empty = ByteBuffer.allocate(0);
        ByteBuffer sink = ByteBuffer.allocate(client.getSession().getApplicationBufferSize());
        for (int i = 0; i < 1000 && !(done(client) && done(server)); i++) {
            step(client, server, clientNet, empty, sink);
            step(server, client, serverNet, empty, sink);
        }
        if (!done(client) || !done(server)) {
            throw new IllegalStateException("the in-memory handshake did not finish: client "
                    + client.getHandshakeStatus() + ", server " + server.getHandshakeStatus());
        }
    }

    /**
     * {@code from} wraps what its handshake needs into {@code net} (write mode, it may still hold records the peer
     * did not take yet), then {@code to} unwraps as much as it can; what it leaves stays for its next turn.
     */
    private static void step(SSLEngine from, SSLEngine to, ByteBuffer net, ByteBuffer empty, ByteBuffer sink)
            throws SSLException {
        runTasks(from);
        while (from.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            SSLEngineResult r = from.wrap(empty, net);
            runTasks(from);
            if (r.bytesProduced() == 0) {
                break;
            }
        }
        net.flip();
        while (net.hasRemaining()) {
            sink.clear();
            SSLEngineResult r = to.unwrap(net, sink);
            runTasks(to);
            if (r.bytesConsumed() == 0) {
                break; // it wants to wrap first, or needs more
            }
        }
        net.compact();
    }

    private static void runTasks(SSLEngine engine) {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus hs = engine.getHandshakeStatus();
        return hs == HandshakeStatus.NOT_HANDSHAKING || hs == HandshakeStatus.FINISHED;
    }
}
