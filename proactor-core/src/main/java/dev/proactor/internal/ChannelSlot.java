package dev.proactor.internal;

import dev.proactor.AsynchChannel;
import dev.proactor.ChannelOp;
import dev.proactor.OpState;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * The state of one {@link ChannelOp} object: its channel and direction, its engine request, which use of the
 * object is current, its timeout and abort reason, and its links in the direction's free list. Made once per
 * operation object (operation objects are reused: a use allocates nothing); the {@link ChannelOp} is its view.
 * Only this package reads or writes these fields; the rules that guard them are {@link ChannelDirection}'s.
 *
 * <p>The engine request's {@link IoRequest#owner() owner} is this slot.
 */
public final class ChannelSlot extends OpSlot {

    private final ChannelOp view;
    final ChannelCore channel;
    final IoRequest request;
    final ChannelDirection direction;
    /** Link in the channel's free list of this kind. */
    ChannelSlot nextFree;
    /**
     * Whether the direction released this use as its callback began ({@link ChannelDirection#release}); guarded by
     * the direction's monitor.
     */
    boolean releasedBeforeCallback;
    /** Counts the uses of this object; advanced under the direction's monitor before the timeout is armed. */
    int use;
    /**
     * Whether a cancel of the current use ({@link ChannelDirection.Marked}) is on its way to the processor and engine:
     * until it has returned, this object is not reused, so that cancel can only reach the use it was made for.
     * Guarded by the direction's monitor.
     */
    boolean cancelling;
    /** The use ended while {@link #cancelling}: the end of that cancel frees this object. Same monitor. */
    boolean freeAfterCancel;
    /** This operation's timeout timer, made on the first timed use, or null. */
    OpTimeout timeout;
    /** {@link System#nanoTime()} at submission while the JFR operation event is enabled, else 0. */
    long startNanos;

    /**
     * Why this use of the operation must end without (more) I/O: set by cancel or close under the direction's
     * monitor, or at submission on a closed channel; read by the processor before and after it starts the
     * operation, so a cancel that races with the start is never lost. Null when not aborted.
     */
    volatile Throwable abortReason;

    /** 1 once a completion of the current use has been claimed ({@link #claimCompletion()}). */
    @SuppressWarnings("unused") // accessed through CLAIMED
    private volatile int claimed;

    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(ChannelSlot.class, "claimed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The slot of {@code view}, an operation of the input or output direction of {@code channel}; called once by
     * the view's constructor.
     */
    public ChannelSlot(ChannelOp view, ChannelCore channel, boolean input) {
        this.view = view;
        this.channel = channel;
        this.direction = input ? this.channel.input : this.channel.output;
        this.request = new IoRequest(this);
    }

    /** The public operation this slot belongs to. */
    public ChannelOp view() {
        return view;
    }

    /** The engine request: what was asked and what happened. */
    public IoRequest request() {
        return request;
    }

    /** The channel the operation runs on. */
    public AsynchChannel channel() {
        return channel.view;
    }

    /** The kind of operation (the view's). */
    OpKind getKind() {
        return view.getKind();
    }

    /** Prepares a new use at submission, before its timeout is armed. Direction monitor held. */
    void resetForUse() {
        state = OpState.INITIALIZED;
        claimed = 0;
        abortReason = null;
    }

    /**
     * Marks this use aborted unless it already is, or its completion was claimed (its result stands: it is queued,
     * or its callback runs, as when a callback closes its own channel); returns whether it was marked now. The
     * reason is made only then: an exception's stack trace is the dearest part of a close. Direction monitor held.
     */
    boolean markAborted(Supplier<? extends Throwable> reasons) {
        if (abortReason != null || isCompletionClaimed()) {
            return false;
        }
        abortReason = reasons.get();
        return true;
    }

    /**
     * Claims the one completion of this use: every path that completes an operation (start, engine, cancel,
     * close) posts it only if this returns true, so no engine or race can complete it twice.
     */
    boolean claimCompletion() {
        return CLAIMED.compareAndSet(this, 0, 1);
    }

    /** Whether the completion of the current use has been claimed (it is queued, running or done). */
    boolean isCompletionClaimed() {
        return claimed != 0;
    }

    /** Drops what the finished use referenced, before the operation goes to its free list. Direction monitor held. */
    void recycle() {
        state = OpState.INITIALIZED;
        attachment = null;
        abortReason = null;
        request.clearReferences();
    }

    @Override
    void dispatch() throws Exception {
        OpTimeout t = timeout;
        if (t != null) {
            t.disarm(); // before the callback, which may start the next use of this object
        }
        if (IoCounts.ENABLED) {
            direction.counters.countFinished(request.bytes(), request.error());
        }
        if (startNanos != 0) {
            OperationEvents.operationDispatched(this, startNanos);
            startNanos = 0;
        }
        channel.dispatch(this);
    }

    @Override
    void onHandlerFailure(Throwable failure) {
        channel.onHandlerFailure(this, failure);
    }

    @Override
    void beforeDispatch() {
        if (channel.overlappingCallbacks) {
            OperationStarter.releaseBeforeCallback(channel, this);
        }
    }

    @Override
    ChannelSlot afterDispatch(boolean mayHandBack) {
        return OperationStarter.afterDispatch(channel, this, mayHandBack);
    }

    @Override
    int chainLimit() {
        return channel.type.chainLimit();
    }

    @Override
    ChannelDirection openChainAcross() {
        if (!channel.chainedCallbacks) {
            return null;
        }
        direction.openChainAcross();
        return direction;
    }

    /** The view's text (diagnostics and error messages). */
    @Override
    public String toString() {
        return view.toString();
    }
}
