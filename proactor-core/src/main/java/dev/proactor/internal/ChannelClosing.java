package dev.proactor.internal;

import dev.proactor.OperationCancelledException;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Cancels and closes an {@link ChannelCore} for its {@link ChannelCore#cancel()}, {@link ChannelCore#close()}
 * and {@link ChannelCore#whenClosed}, which document them: marks every operation of both directions with the
 * reason, closes the engine's channel when closing, takes the active operations back from the processor, and runs
 * the close listeners once.
 *
 * <p>Thread-safety: any thread. The channel's {@code closed} flag is set once, by compare-and-set; its close
 * listener is guarded by the channel's monitor, and listeners run outside it.
 */
final class ChannelClosing {

    private ChannelClosing() {
    }

    static void close(ChannelCore channel) {
        if (channel.closed.compareAndSet(false, true)) {
            abortAll(channel, true);
            Runnable listener;
            synchronized (channel) {
                listener = channel.closeListener;
                channel.closeListener = null;
            }
            if (listener != null) {
                runCloseListener(channel, listener);
            }
        }
    }

    static void whenClosed(ChannelCore channel, Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (channel) {
            if (!channel.closed.get()) {
                Runnable before = channel.closeListener;
                channel.closeListener = before == null ? listener : () -> {
                    runCloseListener(channel, before);
                    runCloseListener(channel, listener);
                };
                return;
            }
        }
        runCloseListener(channel, listener); // closed already: close() found no listener, or will run none
    }

    private static void runCloseListener(ChannelCore channel, Runnable listener) {
        try {
            listener.run();
        } catch (RuntimeException | Error e) {
            Dispatcher.LOG.warn("close listener of {} failed", channel, e);
        }
    }

    /**
     * Marks every operation of both directions (the directions complete them in order, one at a time), closes
     * the engine's channel when closing (so a start racing with us fails at once), then cancels the active
     * operations in the processor.
     */
    static void abortAll(ChannelCore channel, boolean close) {
        Supplier<Throwable> reasons = close ? AsynchronousCloseException::new : OperationCancelledException::new;
        ChannelDirection.Marked activeIn = channel.input.abort(reasons, close);
        ChannelDirection.Marked activeOut = channel.output.abort(reasons, close);
        if (close) {
            try {
                channel.engineChannel.close();
            } catch (IOException e) {
                Dispatcher.LOG.debug("closing {} failed", channel, e);
            }
            channel.demultiplexor.untrack(channel);
            ClosedChannelWatch.unwatch(channel);
            channel.input.releaseFreeTimeouts();
            channel.output.releaseFreeTimeouts();
        }
        if (activeIn != null) {
            activeIn.cancel(channel.processor);
        }
        if (activeOut != null) {
            activeOut.cancel(channel.processor);
        }
    }
}
