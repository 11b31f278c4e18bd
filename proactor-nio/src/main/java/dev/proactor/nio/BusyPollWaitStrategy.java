package dev.proactor.nio;

import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Spins on {@link Selector#selectNow(Consumer)} instead of sleeping in the kernel: the leader never blocks, so
 * a completion is seen without a wake-up (lowest latency), at the price of one core kept busy by the leader.
 * Interrupted by a flag, with no system call.
 */
final class BusyPollWaitStrategy implements WaitStrategy, InterruptStrategy {

    static final String NAME = "busy-poll";

    private final NioSelector selector;
    private final Consumer<SelectionKey> onReady;
    private final ArrayDeque<IoRequest> completed;
    private volatile boolean interrupted;

    BusyPollWaitStrategy(NioSelector selector, Consumer<SelectionKey> onReady,
                         ArrayDeque<IoRequest> completed) {
        this.selector = selector;
        this.onReady = onReady;
        this.completed = completed;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int waitFor(long timeoutNanos) throws IOException {
        long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
        for (;;) {
            selector.select(onReady, 0);
            if (!completed.isEmpty() || interrupted || timeoutNanos == 0
                    || (timeoutNanos > 0 && System.nanoTime() - deadline >= 0)) {
                interrupted = false;
                return completed.size();
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public IoRequest nextCompleted() {
        return completed.poll();
    }

    @Override
    public InterruptStrategy interruptStrategy() {
        return this;
    }

    @Override
    public void interrupt() {
        interrupted = true;
    }
}
