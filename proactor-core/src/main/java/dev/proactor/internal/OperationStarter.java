package dev.proactor.internal;

import dev.proactor.spi.OpKind;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Starts the operations of an {@link ChannelCore} for its public methods, which document them: checks the
 * arguments ({@link OperationArguments}), takes an operation object from its direction's free list, prepares its
 * request and submits it to the direction and, once active, to the processor (arming its timeout first, and
 * dispatching a completion at start on the starting thread when the channel asked for it); after each callback,
 * starts the operation that waited behind it.
 *
 * <p>Thread-safety: no state of its own; runs on the starting thread, and {@link #afterDispatch} on the thread
 * that ran the callback. The directions and the processor take their own locks.
 */
public final class OperationStarter {

    private OperationStarter() {
    }

    public static void read(ChannelCore channel, ByteBuffer dst, long timeout, TimeUnit unit, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.READ);
        OperationArguments.checkDestination(dst, "read");
        long nanos = OperationArguments.timeoutNanos(timeout, unit);
        ChannelSlot op = take(channel, OpKind.READ);
        op.request.prepare(OpKind.READ, channel.engineChannel).buffer(dst);
        submit(channel, op, attachment, nanos);
    }

    public static void read(ChannelCore channel, ByteBuffer[] dsts, int offset, int length, long timeout, TimeUnit unit,
                     Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.READ);
        OperationArguments.checkDestinations(dsts, offset, length);
        long nanos = OperationArguments.timeoutNanos(timeout, unit);
        ChannelSlot op = take(channel, OpKind.READ);
        op.request.prepare(OpKind.READ, channel.engineChannel).buffers(dsts, offset, length);
        submit(channel, op, attachment, nanos);
    }

    public static void write(ChannelCore channel, ByteBuffer src, long timeout, TimeUnit unit, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.WRITE);
        Objects.requireNonNull(src, "src");
        long nanos = OperationArguments.timeoutNanos(timeout, unit);
        ChannelSlot op = take(channel, OpKind.WRITE);
        op.request.prepare(OpKind.WRITE, channel.engineChannel).buffer(src);
        submit(channel, op, attachment, nanos);
    }

    public static void write(ChannelCore channel, ByteBuffer[] srcs, int offset, int length, long timeout, TimeUnit unit,
                      Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.WRITE);
        OperationArguments.checkSources(srcs, offset, length);
        long nanos = OperationArguments.timeoutNanos(timeout, unit);
        ChannelSlot op = take(channel, OpKind.WRITE);
        op.request.prepare(OpKind.WRITE, channel.engineChannel).buffers(srcs, offset, length);
        submit(channel, op, attachment, nanos);
    }

    public static void accept(ChannelCore channel, long timeout, TimeUnit unit, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.ACCEPT);
        long nanos = OperationArguments.timeoutNanos(timeout, unit);
        ChannelSlot op = take(channel, OpKind.ACCEPT);
        op.request.prepare(OpKind.ACCEPT, channel.engineChannel);
        submit(channel, op, attachment, nanos);
    }

    public static void connect(ChannelCore channel, SocketAddress remote, long timeout, TimeUnit unit, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.CONNECT);
        Objects.requireNonNull(remote, "remote");
        OperationArguments.checkResolved(remote);
        long nanos = OperationArguments.timeoutNanos(timeout, unit);
        ChannelSlot op = take(channel, OpKind.CONNECT);
        op.request.prepare(OpKind.CONNECT, channel.engineChannel).address(remote);
        submit(channel, op, attachment, nanos);
    }

    public static void receive(ChannelCore channel, ByteBuffer dst, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.RECEIVE);
        OperationArguments.checkDestination(dst, "receive");
        ChannelSlot op = take(channel, OpKind.RECEIVE);
        op.request.prepare(OpKind.RECEIVE, channel.engineChannel).buffer(dst);
        submit(channel, op, attachment);
    }

    public static void send(ChannelCore channel, ByteBuffer src, SocketAddress target, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.SEND);
        Objects.requireNonNull(src, "src");
        if (target != null) {
            OperationArguments.checkResolved(target);
        }
        ChannelSlot op = take(channel, OpKind.SEND);
        op.request.prepare(OpKind.SEND, channel.engineChannel).buffer(src).address(target);
        submit(channel, op, attachment);
    }

    public static void readFile(ChannelCore channel, ByteBuffer dst, long position, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.READ_FILE);
        OperationArguments.checkDestination(dst, "read");
        OperationArguments.checkPosition(position);
        ChannelSlot op = take(channel, OpKind.READ_FILE);
        op.request.prepare(OpKind.READ_FILE, channel.engineChannel).buffer(dst).position(position);
        submit(channel, op, attachment);
    }

    public static void writeFile(ChannelCore channel, ByteBuffer src, long position, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.WRITE_FILE);
        Objects.requireNonNull(src, "src");
        OperationArguments.checkPosition(position);
        ChannelSlot op = take(channel, OpKind.WRITE_FILE);
        op.request.prepare(OpKind.WRITE_FILE, channel.engineChannel).buffer(src).position(position);
        submit(channel, op, attachment);
    }

    public static void transmitFile(ChannelCore channel, FileChannel file, long position, long count, ByteBuffer header,
                             ByteBuffer trailer, Object attachment) {
        OperationArguments.checkOperation(channel, OpKind.TRANSMIT_FILE);
        Objects.requireNonNull(file, "file");
        OperationArguments.checkTransmit(position, count, header, trailer);
        ChannelSlot op = take(channel, OpKind.TRANSMIT_FILE);
        op.request.prepare(OpKind.TRANSMIT_FILE, channel.engineChannel)
                .transmit(file, position, count, header, trailer);
        submit(channel, op, attachment);
    }

    /**
     * Hands a prepared operation to its direction, and to the processor if it became active. On a closed
     * channel it is marked with {@link ClosedChannelException} and completes with it, in order.
     */
    private static void submit(ChannelCore channel, ChannelSlot op, Object attachment) {
        submit(channel, op, attachment, 0);
    }

    /**
     * As {@link #submit(ChannelCore, ChannelSlot, Object)}, arming a timeout of {@code timeoutNanos} first when
     * positive. The use begins before the timer is armed, and the timer before admission: the dispatching thread,
     * which disarms it before the callback, always comes after the arming, and a timer that fires before admission
     * marks this use.
     */
    private static void submit(ChannelCore channel, ChannelSlot op, Object attachment, long timeoutNanos) {
        op.attachment = attachment;
        int use = op.direction.beginUse(op);
        if (timeoutNanos > 0) {
            OpTimeout t = op.timeout;
            if (t == null) {
                t = op.timeout = new OpTimeout(op, channel.demultiplexor);
            }
            try {
                t.arm(use, timeoutNanos);
            } catch (IllegalStateException demultiplexorClosed) {
                // No timer can run any more; the channel is being closed with it, so the operation completes
                // with a close error without one.
            }
        }
        if (OperationEvents.timing()) {
            op.startNanos = System.nanoTime();
        }
        op.request.awaited(op.direction.takeAwaitNext());
        ChannelSlot now = op.direction.submit(op, channel.closed.get());
        if (now == null) {
            return;
        }
        if (!channel.completionsAtStart) {
            ChannelDirection callback = op.direction == channel.input ? channel.output : channel.input;
            if (!callback.isChainAcrossOpenHere()) {
                channel.processor.start(now);
                return;
            }
            ChannelSlot done = channel.processor.startHandingBack(now); // this thread runs the other one's callback
            if (done != null) {
                callback.handBackAcross(done);
            }
            return;
        }
        ChannelSlot done = channel.processor.startHandingBack(now);
        if (done != null) {
            CallbackChain.dispatchHandedBack(done, channel.demultiplexor.dispatcher().totals);
        }
    }

    /**
     * After the callback: closes an accepted connection nobody adopted, recycles, starts the next operation. With
     * completions at start on and {@code mayHandBack}, the next operation's completion at start is handed back.
     *
     * @return the next operation if it completed while this thread started it (to dispatch next), else null
     */
    static ChannelSlot afterDispatch(ChannelCore channel, ChannelSlot op, boolean mayHandBack) {
        Object unadopted = op.request.takeAcceptedHandle();
        if (unadopted != null) {
            channel.processor.engine().discard(unadopted); // not adopted by the handler: close it, never leak it
        }
        ChannelSlot next = op.direction.finish(op);
        if (op.timeout != null && channel.closed.get()) {
            op.timeout.release(); // closed after abortAll looked at the free list, or before: once is enough
        }
        if (next == null) {
            return null;
        }
        if (mayHandBack && (channel.completionsAtStart || channel.chainedCallbacks)) {
            return channel.processor.startHandingBack(next);
        }
        channel.processor.start(next);
        return null;
    }

    /**
     * Before the callback of {@code op}, on a channel with overlapping callbacks: frees its direction and starts
     * the operation that waited behind it, if any (as usual: its completion, even at start, is queued for the
     * demultiplexor's threads, and may be dispatched while this callback still runs).
     */
    static void releaseBeforeCallback(ChannelCore channel, ChannelSlot op) {
        ChannelSlot next = op.direction.release(op);
        if (next != null) {
            channel.processor.start(next);
        }
    }

    /** A free operation of {@code kind} from its direction's free list, or a new one (only until warmed up). */
    private static ChannelSlot take(ChannelCore channel, OpKind kind) {
        ChannelSlot op = (kind.isInput() ? channel.input : channel.output).takeFree(kind);
        if (op != null) {
            return op;
        }
        return channel.newOp(kind);
    }
}
