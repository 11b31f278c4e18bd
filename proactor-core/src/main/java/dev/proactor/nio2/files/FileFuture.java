package dev.proactor.nio2.files;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link Future} of one operation of a {@link ProactorAsynchronousFileChannel}, with the JDK's cancel rule for
 * asynchronous channels: a cancelled future drops the result (the I/O itself goes on; the buffer must be treated as
 * undefined), and {@code cancel(true)} closes the channel. Waiting parks ({@link CompletableFuture}), so a virtual
 * thread in {@link #get()} frees its carrier.
 *
 * <p>Thread-safe.
 */
final class FileFuture<V> implements Future<V> {

    private final CompletableFuture<V> outcome = new CompletableFuture<>();
    private final Closeable channel;

    FileFuture(Closeable channel) {
        this.channel = channel;
    }

    /** Completes the future with a value or, if {@code error} is not null, with that error (a cancel wins). */
    void complete(V value, Throwable error) {
        if (error == null) {
            outcome.complete(value);
        } else {
            outcome.completeExceptionally(error);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = outcome.cancel(false);
        if (cancelled && mayInterruptIfRunning) {
            try {
                channel.close();
            } catch (IOException e) {
                // the channel is closed anyway; the cancel itself succeeded
            }
        }
        return cancelled;
    }

    @Override
    public boolean isCancelled() {
        return outcome.isCancelled();
    }

    @Override
    public boolean isDone() {
        return outcome.isDone();
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        return outcome.get();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return outcome.get(timeout, unit);
    }
}
