package dev.proactor.bench.server.proactor;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.toolkit.Acceptor;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The echo service the JMH benchmarks run in-process: an {@link Acceptor} (several accepts kept posted) that starts
 * a {@link ProactorEchoConnection} for each connection, on a demultiplexor of its own. The same protocol as the
 * examples' {@code echo-server}, which the matrix runs as a process; kept here so that the benchmarks compile
 * against the library's API only.
 */
final class ProactorEchoService implements AutoCloseable {

    private final Demultiplexor demultiplexor;
    private final Acceptor acceptor;

    /**
     * Opens the demultiplexor, binds, starts the pool and the accepts; each connection reads into a direct buffer
     * of {@code bufferSize} bytes and spins {@code delayMicros} per read.
     *
     * @throws java.net.BindException if the address is in use
     */
    ProactorEchoService(ProactorConfig config, InetSocketAddress bind, int bufferSize, int delayMicros)
            throws IOException {
        this.demultiplexor = Demultiplexor.open(config);
        try {
            this.acceptor = Acceptor.builder(demultiplexor, bind,
                    () -> new ProactorEchoConnection(bufferSize, delayMicros)).open();
        } catch (IOException | RuntimeException e) {
            demultiplexor.close();
            throw e;
        }
        demultiplexor.start();
    }

    /** The bound address (with the real port when 0 was asked). */
    InetSocketAddress localAddress() {
        return acceptor.localAddress();
    }

    /** Stops accepting, then closes the demultiplexor and its connections. */
    @Override
    public void close() {
        acceptor.close();
        demultiplexor.close();
    }
}
