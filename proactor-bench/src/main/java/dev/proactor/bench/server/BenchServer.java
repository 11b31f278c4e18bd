package dev.proactor.bench.server;

import java.io.IOException;
import java.net.InetSocketAddress;

/** A server run as a benchmark process: started once, served until the process is asked to stop. */
public interface BenchServer {

    /**
     * Binds and starts serving.
     *
     * @return the bound address (with the real port when 0 was asked)
     * @throws IOException          when binding fails
     * @throws InterruptedException when interrupted while starting
     */
    InetSocketAddress start() throws IOException, InterruptedException;

    /**
     * Stops accepting, closes every connection and waits for the server threads.
     *
     * @throws IOException          when closing fails
     * @throws InterruptedException when interrupted while waiting
     */
    void stop() throws IOException, InterruptedException;
}
