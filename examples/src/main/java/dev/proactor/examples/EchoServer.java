package dev.proactor.examples;

import dev.proactor.Demultiplexor;
import dev.proactor.DispatchTotals;
import dev.proactor.ProactorConfig;
import dev.proactor.toolkit.Acceptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.LongAdder;

/**
 * The echo service: an {@link Acceptor} (several accepts kept posted) that starts an {@link EchoConnection} for
 * each connection. The engine, wait strategy and leader mode come from the system properties.
 */
public final class EchoServer implements AutoCloseable {

    private final Demultiplexor demultiplexor;
    private final Acceptor acceptor;
    // Summed from each connection's counters when it closes, for the totals printed at exit.
    private final LongAdder connections = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final EchoBuffers buffers;

    /**
     * Opens the demultiplexor, binds, starts the pool and the accepts; each connection reads into a direct buffer
     * of {@code bufferSize} bytes.
     *
     * @throws java.net.BindException if the address is in use
     */
    public EchoServer(ProactorConfig config, InetSocketAddress bind, int bufferSize, int delayMicros)
            throws IOException {
        this(config, bind, bufferSize, false, delayMicros);
    }

    /**
     * As {@link #EchoServer(ProactorConfig, InetSocketAddress, int, int)}, with each connection's buffer on the Java
     * heap if {@code heapBuffers}.
     *
     * @throws java.net.BindException if the address is in use
     */
    public EchoServer(ProactorConfig config, InetSocketAddress bind, int bufferSize, boolean heapBuffers,
                      int delayMicros) throws IOException {
        this.buffers = new EchoBuffers(bufferSize, heapBuffers);
        this.demultiplexor = Demultiplexor.open(config);
        try {
            this.acceptor = Acceptor.builder(demultiplexor, bind,
                    () -> new EchoConnection(buffers, delayMicros, this)).open();
        } catch (IOException | RuntimeException e) {
            demultiplexor.close();
            throw e;
        }
        demultiplexor.start();
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() {
        return acceptor.localAddress();
    }

    public Demultiplexor demultiplexor() {
        return demultiplexor;
    }

    /**
     * Counts a closed connection's traffic into the totals (called by {@link EchoConnection} on close; an
     * operation whose callback is still running at that moment is not counted yet).
     */
    void closed(long in, long out) {
        connections.increment();
        bytesIn.add(in);
        bytesOut.add(out);
    }

    /** Read buffers allocated so far: those of ended connections serve the next ones (tests). */
    long buffersAllocated() {
        return buffers.allocated();
    }

    /** The demultiplexor's totals and the traffic of the connections closed so far, on one line. */
    public String totals() {
        DispatchTotals t = demultiplexor.getTotals();
        return "totals: connections closed=" + connections.sum() + ", bytes in=" + bytesIn.sum() + ", bytes out="
                + bytesOut.sum() + ", " + t;
    }

    @Override
    public void close() {
        acceptor.close();
        demultiplexor.close();
    }
}
