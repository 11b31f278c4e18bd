package dev.proactor;

import dev.proactor.internal.OpSlot;

/**
 * A completion the demultiplexor dispatches to a handler: the result of an I/O operation ({@link ChannelOp}) or
 * a timer/posted completion ({@link OpTimer}).
 *
 * <p>Operation objects are owned by the framework and reused; a handler reads them inside its callback only.
 */
public abstract sealed class Op permits ChannelOp, OpTimer {

    Op() {
    }

    /** The state of this operation object, owned by the machinery; made once with the object. */
    abstract OpSlot slot();

    /** Where the operation is in its life cycle; {@link OpState#COMPLETED} inside the callback. */
    public OpState getState() {
        return slot().state();
    }

    /** The object given when the operation was started, or {@code null}. */
    public Object getAttachment() {
        return slot().attachment();
    }
}
