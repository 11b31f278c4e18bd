package dev.proactor.conformance;

import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A provider that is neither the JDK's nor ours: its one group exists only so tests can hand a group of another
 * provider to a provider under test ({@link java.nio.channels.IllegalChannelGroupException}).
 */
final class ForeignChannelProvider extends AsynchronousChannelProvider {

    /** A group of this provider; it owns no threads and no channels. */
    AsynchronousChannelGroup group() {
        return new AsynchronousChannelGroup(this) {
            private volatile boolean shutdown;

            @Override
            public boolean isShutdown() {
                return shutdown;
            }

            @Override
            public boolean isTerminated() {
                return shutdown;
            }

            @Override
            public void shutdown() {
                shutdown = true;
            }

            @Override
            public void shutdownNow() {
                shutdown = true;
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) {
                return shutdown;
            }
        };
    }

    @Override
    public AsynchronousChannelGroup openAsynchronousChannelGroup(int nThreads, ThreadFactory threadFactory) {
        return group();
    }

    @Override
    public AsynchronousChannelGroup openAsynchronousChannelGroup(ExecutorService executor, int initialSize) {
        return group();
    }

    @Override
    public AsynchronousServerSocketChannel openAsynchronousServerSocketChannel(AsynchronousChannelGroup group) {
        throw new UnsupportedOperationException("a stand-in provider opens no channels");
    }

    @Override
    public AsynchronousSocketChannel openAsynchronousSocketChannel(AsynchronousChannelGroup group) {
        throw new UnsupportedOperationException("a stand-in provider opens no channels");
    }
}
