package dev.proactor.bench.server;

import java.io.IOException;
import java.net.InetSocketAddress;

/** An echo server that writes back every byte it reads, in order. */
public interface EchoServer {

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
