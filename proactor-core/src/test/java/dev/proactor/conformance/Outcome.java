package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.channels.CompletionHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link CompletionHandler} that records how (and on which thread) one operation ended, for a test to await.
 * Waits are hang guards only: a test that would hang fails instead.
 */
final class Outcome<V> implements CompletionHandler<V, Object> {

    static final long GUARD_SECONDS = 60;

    private final CompletableFuture<V> result = new CompletableFuture<>();
    private volatile Thread thread;
    private volatile Object attachment;

    @Override
    public void completed(V value, Object attachment) {
        record(attachment);
        result.complete(value);
    }

    @Override
    public void failed(Throwable error, Object attachment) {
        record(attachment);
        result.completeExceptionally(error);
    }

    private void record(Object attachment) {
        this.attachment = attachment;
        this.thread = Thread.currentThread();
    }

    /** The value it completed with; fails the test if it failed or never ended. */
    V value() throws InterruptedException {
        try {
            return result.get(GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("the operation failed", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("hang guard: the operation never completed");
        }
    }

    /** What it failed with; fails the test if it completed or never ended. */
    Throwable failure() throws InterruptedException {
        try {
            V v = result.get(GUARD_SECONDS, TimeUnit.SECONDS);
            return fail("expected a failure, completed with " + v);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("hang guard: the operation never ended");
        }
    }

    /**
     * Whether it ended within {@code millis}: for a test that must tell an operation the kernel will never finish
     * from one that finishes (never to assert on speed).
     */
    boolean endsWithin(long millis) throws InterruptedException {
        try {
            result.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException ended) {
            // ended all the same
        } catch (TimeoutException e) {
            return false;
        }
        return true;
    }

    /** The thread its handler ran on (after it ended). */
    Thread thread() throws InterruptedException {
        try {
            result.get(GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException expected) {
            // the thread was recorded all the same
        } catch (TimeoutException e) {
            throw new AssertionError("hang guard: the operation never ended");
        }
        Thread t = thread;
        assertNotNull(t);
        return t;
    }

    Object attachment() {
        return attachment;
    }
}
