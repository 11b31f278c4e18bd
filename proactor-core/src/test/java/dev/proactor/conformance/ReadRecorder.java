package dev.proactor.conformance;

import dev.proactor.AsynchHandler;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A handler that records read completions (attachment and error, in dispatch order) and whether two read
 * callbacks of its channel ever overlapped; {@link #done} counts completions of both directions down. Tests
 * override {@link #onRead} to act inside the callback.
 */
public class ReadRecorder implements AsynchHandler {
    public final List<Object> order = new CopyOnWriteArrayList<>();
    public final List<Throwable> errors = new CopyOnWriteArrayList<>();
    public final AtomicBoolean overlapped = new AtomicBoolean();
    public final CountDownLatch done;
    private final AtomicInteger inside = new AtomicInteger();

    public ReadRecorder(int expected) {
        done = new CountDownLatch(expected);
    }

    @Override
    public void onReadCompleted(OpRead op) throws Exception {
        if (inside.incrementAndGet() != 1) {
            overlapped.set(true);
        }
        try {
            order.add(op.getAttachment());
            errors.add(op.getError());
            onRead(op);
            Thread.sleep(1); // widen the window in which a second callback of this direction could start
        } finally {
            inside.decrementAndGet();
            done.countDown();
        }
    }

    /** Called inside each read callback, after recording it. */
    protected void onRead(OpRead op) throws Exception {
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        done.countDown();
    }
}
