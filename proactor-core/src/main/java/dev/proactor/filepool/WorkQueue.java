package dev.proactor.filepool;

import dev.proactor.spi.IoRequest;
import java.util.ArrayDeque;

/**
 * The file engine's requests waiting for a worker, and the count of those running. A monitor: every method
 * synchronizes on this object; workers sleep in {@link #take()} with {@link Object#wait()}, which (unlike a
 * {@code Condition}) allocates nothing per wait. The deque grows to the largest backlog and is then reused, so
 * the steady state allocates nothing.
 */
final class WorkQueue {

    private final ArrayDeque<IoRequest> pending = new ArrayDeque<>();
    private int running;
    private boolean stopped;

    /** Adds a request for the next free worker. */
    synchronized void submit(IoRequest r) {
        pending.addLast(r);
        notifyAll(); // workers and a quiescing closer share this monitor: wake them all (a handful of threads)
    }

    /**
     * Removes {@code r} if no worker has taken it yet.
     *
     * @return whether it was waiting (and is now removed)
     */
    synchronized boolean removeWaiting(IoRequest r) {
        return pending.removeFirstOccurrence(r);
    }

    /**
     * The next request for the calling worker, counted as running until {@link #finished()}; waits for one.
     *
     * @return the request, or {@code null} once {@link #stop()} was called and nothing is waiting
     * @throws InterruptedException if the worker thread is interrupted while waiting
     */
    synchronized IoRequest take() throws InterruptedException {
        while (pending.isEmpty()) {
            if (stopped) {
                return null;
            }
            wait();
        }
        running++;
        return pending.pollFirst();
    }

    /** A worker finished the request it took (after handing it to the completion queue). */
    synchronized void finished() {
        running--;
        if (running == 0 && pending.isEmpty()) {
            notifyAll(); // a closer may wait in awaitIdle()
        }
    }

    /** Waits until no request is waiting or running. */
    synchronized void awaitIdle() throws InterruptedException {
        while (running > 0 || !pending.isEmpty()) {
            wait();
        }
    }

    /** Makes idle workers leave {@link #take()} (requests still waiting are run first). */
    synchronized void stop() {
        stopped = true;
        notifyAll();
    }
}
