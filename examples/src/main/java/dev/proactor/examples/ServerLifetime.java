package dev.proactor.examples;

import java.util.concurrent.CountDownLatch;

/**
 * Keeps a server command running until SIGINT or SIGTERM: the JVM's shutdown hook runs {@code stop}, then
 * {@link #await()} returns. {@code stop} is expected to finish what it must (print statistics, close the
 * server) before it returns; the JVM exits when it has.
 */
final class ServerLifetime {

    private final CountDownLatch stopped = new CountDownLatch(1);

    ServerLifetime(String name, Runnable stop) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop.run();
            } finally {
                stopped.countDown();
            }
        }, name + "-shutdown"));
    }

    /** Blocks the command's thread until the server was stopped. */
    void await() throws InterruptedException {
        stopped.await();
    }
}
