package dev.proactor.jni.epoll;

import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * Spins on {@code epoll_wait(0)} until something completes, an interrupt arrives or the timeout ends: the
 * lowest latency, at the price of a busy core while the leader waits.
 */
final class EpollBusyPollWaitStrategy implements WaitStrategy {

    static final String NAME = "busy-poll";

    private final EpollPoller poller;
    private final EventfdInterruptStrategy interrupt;
    private final ArrayDeque<IoRequest> completed;

    EpollBusyPollWaitStrategy(EpollPoller poller, EventfdInterruptStrategy interrupt,
                              ArrayDeque<IoRequest> completed) {
        this.poller = poller;
        this.interrupt = interrupt;
        this.completed = completed;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int waitFor(long timeoutNanos) throws IOException {
        long deadline = System.nanoTime() + Math.max(timeoutNanos, 0);
        while (true) {
            if (interrupt.consume()) {
                poller.poll(0); // still collect what is ready, then return as asked
                break;
            }
            poller.poll(0);
            if (!completed.isEmpty() || poller.interrupted() || timeoutNanos == 0
                    || (timeoutNanos > 0 && System.nanoTime() - deadline >= 0)) {
                break;
            }
            Thread.onSpinWait();
        }
        return completed.size();
    }

    @Override
    public IoRequest nextCompleted() {
        return completed.poll();
    }

    @Override
    public InterruptStrategy interruptStrategy() {
        return interrupt;
    }
}
