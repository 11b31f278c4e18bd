package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchHandler;
import dev.proactor.ChannelOp;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpTransmit;
import dev.proactor.OpWrite;
import dev.proactor.spi.OpKind;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A handler that records every completion it gets (a snapshot, since operation objects are reused) and counts
 * the completions of each attachment, to check that every operation completes exactly once.
 */
class Completions implements AsynchHandler {

    /** What one completion said. */
    record Completion(OpKind kind, Object attachment, long bytes, Throwable error, long position, long fileBytes,
                      SocketAddress address, ByteBuffer buffer) {

        boolean success() {
            return error == null;
        }
    }

    private final List<Completion> all = new ArrayList<>();
    private final Map<Object, AtomicInteger> perAttachment = new ConcurrentHashMap<>();
    private final Semaphore arrived = new Semaphore(0);

    private void record(ChannelOp op, long position, long fileBytes, SocketAddress address, ByteBuffer buffer) {
        Completion c = new Completion(op.getKind(), op.getAttachment(), op.getBytesCompleted(), op.getError(),
                position, fileBytes, address, buffer);
        synchronized (all) {
            all.add(c);
        }
        if (op.getAttachment() != null) {
            perAttachment.computeIfAbsent(op.getAttachment(), k -> new AtomicInteger()).incrementAndGet();
        }
        arrived.release();
    }

    @Override
    public void onReadCompleted(OpRead op) {
        record(op, op.getPosition(), 0, null, op.getBuffer());
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        record(op, op.getPosition(), 0, null, op.getBuffer());
    }

    @Override
    public void onReceiveCompleted(OpReceive op) {
        record(op, 0, 0, op.getSourceAddress(), op.getBuffer());
    }

    @Override
    public void onSendCompleted(OpSend op) {
        record(op, 0, 0, op.getTargetAddress(), op.getBuffer());
    }

    @Override
    public void onTransmitCompleted(OpTransmit op) {
        record(op, op.getPosition(), op.getFileBytes(), null, null);
    }

    /** Waits (hang guard only) until {@code n} more completions than already awaited have arrived. */
    void await(int n, String what) throws InterruptedException {
        assertTrue(arrived.tryAcquire(n, 60, TimeUnit.SECONDS), "hang guard: " + what + " never completed");
    }

    /** A copy of the completions so far, in arrival order. */
    List<Completion> list() {
        synchronized (all) {
            return new ArrayList<>(all);
        }
    }

    /** The (first) completion with {@code attachment}. */
    Completion get(Object attachment) {
        for (Completion c : list()) {
            if (attachment.equals(c.attachment())) {
                return c;
            }
        }
        throw new AssertionError("no completion with attachment " + attachment);
    }

    /** How many completions had {@code attachment}. */
    int count(Object attachment) {
        AtomicInteger n = perAttachment.get(attachment);
        return n == null ? 0 : n.get();
    }

    /** Total completions so far. */
    int size() {
        synchronized (all) {
            return all.size();
        }
    }
}
