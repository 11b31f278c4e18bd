package dev.proactor.jni.epoll;

import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.util.ArrayDeque;

/** Blocks in {@code epoll_wait}; an eventfd write interrupts it. The default strategy of the epoll engine. */
final class EpollWaitStrategy implements WaitStrategy {

    static final String NAME = "epoll";

    private final EpollPoller poller;
    private final EventfdInterruptStrategy interrupt;
    private final ArrayDeque<IoRequest> completed;

    EpollWaitStrategy(EpollPoller poller, EventfdInterruptStrategy interrupt, ArrayDeque<IoRequest> completed) {
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
        boolean interrupted = interrupt.consume();
        // An interrupt that came before this wait, or results not yet collected: poll without blocking.
        int millis = interrupted || !completed.isEmpty() ? 0 : EpollPoller.toMillis(timeoutNanos);
        poller.poll(millis);
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
