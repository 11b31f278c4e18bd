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
 * Waits in {@link Selector#select(Consumer, long)} (the JDK's epoll or poll selector, depending on the
 * selector's provider) and is interrupted with {@link Selector#wakeup()}. The consumer form of select keeps
 * the selected-key set out of the loop, so waiting allocates nothing.
 */
final class SelectorWaitStrategy implements WaitStrategy, InterruptStrategy {

    private final String name;
    private final NioSelector selector;
    private final Consumer<SelectionKey> onReady;
    private final ArrayDeque<IoRequest> completed;

    SelectorWaitStrategy(String name, NioSelector selector, Consumer<SelectionKey> onReady,
                         ArrayDeque<IoRequest> completed) {
        this.name = name;
        this.selector = selector;
        this.onReady = onReady;
        this.completed = completed;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int waitFor(long timeoutNanos) throws IOException {
        // A positive wait under a millisecond is rounded up: 0 would mean "do not wait".
        long millis = timeoutNanos <= 0 ? timeoutNanos : Math.max(1, (timeoutNanos + 999_999) / 1_000_000);
        selector.select(onReady, millis);
        return completed.size();
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
        selector.wakeup();
    }
}
