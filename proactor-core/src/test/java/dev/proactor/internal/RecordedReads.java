package dev.proactor.internal;

import dev.proactor.AsynchHandler;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A handler that records each read completion's byte count and error (null on success), in dispatch order; writes
 * are ignored. For tests that drive a demultiplexor by hand and check what each read ended with.
 */
final class RecordedReads implements AsynchHandler {

    final List<Long> bytes = new CopyOnWriteArrayList<>();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Override
    public void onReadCompleted(OpRead op) {
        bytes.add(op.getBytesCompleted());
        errors.add(op.getError());
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
    }
}
