package dev.proactor.nio;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The selector of one nio engine, with what a thread closing a channel needs to know when the channel's socket
 * is released.
 *
 * <p>Why: the JDK closes the socket of a channel registered with a selector only when a select (or the selector's
 * close) deregisters its cancelled key ({@code SelectorImpl.processDeregisterQueue}, which then calls the
 * channel's {@code kill}); until then a closed listener still holds its port, a closed connection its descriptor.
 * A select deregisters the keys cancelled before it began (before it polls). So {@link #awaitDeregistration}
 * returns once a select that began after the cancel has ended. Selects are numbered as they begin; each holds a
 * lock while it runs, so a closing thread that finds no select running runs one itself (a handler closing on the
 * only pool thread, or after the leaders stopped, never waits for a leader that will not come); else it wakes the
 * running select, and while a closing thread waits, selects do not block, so the next one ends at once too.
 *
 * <p>Threads: {@link #select} on the leader (one at a time, as the wait strategy calls it); the others on any
 * thread. Selecting allocates nothing; its lock is contended only by a close.
 */
final class NioSelector {

    /** The action of a closing thread's own select: readiness it passes over is reported again (level-triggered). */
    private static final Consumer<SelectionKey> PASS_OVER = key -> { };

    private final Selector selector;
    /** Held for the whole of every select: a closing thread that takes it knows none is running. */
    private final ReentrantLock selecting = new ReentrantLock();
    /** Threads in {@link #awaitDeregistration}; while there are any, selects do not block. */
    private final AtomicInteger closers = new AtomicInteger();
    /** The number of the last select begun (from 1); written under {@link #selecting}. */
    private volatile long begun;
    /** The number of the last select that ended; written under {@link #selecting}. */
    private volatile long ended;
    /** Closing threads wait on it for a select to end; notified after each select while there are any. */
    private final Object selectEnded = new Object();
    /**
     * Whether a wake-up was asked since the last select began: the JDK keeps a wake-up asked with no select running
     * for the next select, so one asked since then may be pending still, or consumed by the select running.
     */
    private final AtomicBoolean wakeupAsked = new AtomicBoolean();
    /** Whether {@link #wakeupAsked} was set when the last select began (and cleared it); under {@link #selecting}. */
    private boolean wakeupBeforeLastSelect;
    /** Wake-ups sent to the JDK selector (tests). */
    private final AtomicLong wakeupsSent = new AtomicLong();

    NioSelector(Selector selector) {
        this.selector = selector;
    }

    /** Registers {@code channel} (non-blocking already) with no interest. Any thread. */
    SelectionKey register(SelectableChannel channel) throws IOException {
        return channel.register(selector, 0);
    }

    /**
     * {@link Selector#select(Consumer, long)}: waits until {@code timeoutMillis} (negative: no limit, 0: not at
     * all) for readiness, calling {@code onReady} for each ready key. Returns at once, as after a wake-up, while a
     * thread closing a channel waits for a select to end. Leader only.
     *
     * @return the number of keys {@code onReady} was called for
     */
    int select(Consumer<SelectionKey> onReady, long timeoutMillis) throws IOException {
        selecting.lock();
        try {
            return selectLocked(onReady, closers.get() > 0 ? 0 : timeoutMillis);
        } finally {
            unlockAfterSelect();
        }
    }

    /** Runs one numbered select. Lock held. */
    private int selectLocked(Consumer<SelectionKey> onReady, long timeoutMillis) throws IOException {
        long number = begun + 1;
        begun = number;
        wakeupBeforeLastSelect = wakeupAsked.getAndSet(false);
        int selected;
        if (timeoutMillis < 0) {
            selected = selector.select(onReady);
        } else {
            selected = timeoutMillis == 0 ? selector.selectNow(onReady) : selector.select(onReady, timeoutMillis);
        }
        ended = number;
        return selected;
    }

    /** Releases the lock, then tells the closing threads waiting that a select ended. */
    private void unlockAfterSelect() {
        selecting.unlock();
        if (closers.get() > 0) {
            synchronized (selectEnded) {
                selectEnded.notifyAll();
            }
        }
    }

    /** Makes a select running now, or else the next one, return at once. Any thread. */
    void wakeup() {
        wakeupAsked.set(true);
        wakeupsSent.incrementAndGet();
        selector.wakeup();
    }

    /** Wake-ups sent so far (tests). */
    long wakeupsSent() {
        return wakeupsSent.get();
    }

    /**
     * Returns once the selector has deregistered {@code key}, which the caller cancelled (and whose channel it
     * closed) before calling, so that the JDK has released the channel's socket. Any thread but one inside a
     * select (readiness work never closes a channel; such a call returns at once, and the next select finishes
     * the release).
     *
     * <p>Never waits for a select that does not come, and never for readiness: it waits only while a select runs,
     * which its wake-up ends, and selects begun while it waits do not block. An interrupt does not stop the wait
     * (it is short); the thread's interrupt status is kept. If the selector is closed meanwhile, its close
     * deregisters every key.
     *
     * @throws IOException if this thread's own select fails
     */
    void awaitDeregistration(SelectionKey key) throws IOException {
        if (selecting.isHeldByCurrentThread()) {
            return;
        }
        boolean interrupted = false;
        closers.incrementAndGet();
        try {
            long cancelledBefore = begun; // selects numbered higher began after the cancel
            while (ended <= cancelledBefore) {
                if (selecting.tryLock()) {
                    try {
                        selectNowAfterCancel();
                    } finally {
                        unlockAfterSelect(); // other closing threads may wait for this select
                    }
                    return;
                }
                wakeup();
                interrupted |= awaitSelectEnd(cancelledBefore);
            }
        } finally {
            closers.decrementAndGet();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A select run by a closing thread while none runs: deregisters the keys cancelled so far. Lock held.
     */
    private void selectNowAfterCancel() throws IOException {
        if (!selector.isOpen()) {
            return; // its close deregistered every key
        }
        try {
            selectLocked(PASS_OVER, 0);
        } catch (ClosedSelectorException e) {
            return; // closed since the check: same as above
        }
        // It may have consumed a wake-up meant for the leader's next select (a stop, a new request): one asked before
        // it began, or while it ran. Give it back then, and only then: an unasked one costs the next select a return
        // and the read of the wake-up.
        if (wakeupBeforeLastSelect || wakeupAsked.get()) {
            wakeup();
        }
    }

    /**
     * Waits while a select runs and none numbered above {@code number} has ended.
     *
     * @return whether the thread was interrupted (its status is clear then)
     */
    private boolean awaitSelectEnd(long number) {
        synchronized (selectEnded) {
            try {
                while (ended <= number && selecting.isLocked()) {
                    selectEnded.wait();
                }
                return false;
            } catch (InterruptedException e) {
                return true;
            }
        }
    }

    /** Closes the selector, which deregisters every key (releasing the sockets of closed channels). */
    void close() throws IOException {
        selector.close();
    }
}
