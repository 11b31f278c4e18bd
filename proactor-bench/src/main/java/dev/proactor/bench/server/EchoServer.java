package dev.proactor.bench.server;

/** An echo server that writes back every byte it reads, in order. */
public interface EchoServer extends BenchServer {
}
