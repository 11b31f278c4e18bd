package dev.proactor.spi;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Reusable objects of one kind (buffers, native blocks) that their users take only while they use them and give
 * back right after, shared by every user in the process: memory needed for one transfer at a time is then held by
 * the transfers in progress, not by every channel that ever made one, and the same few objects are reused, so they
 * stay in the CPU's caches instead of each channel touching its own cold one.
 *
 * <p><b>How many are kept.</b> Every object given back is kept (none is dropped): the spares never exceed the most
 * that were ever in use at once, and a steady load makes nothing new. Taking looks at the calling thread's stripe
 * first, then at the others, and makes a new object only when no stripe has a spare, so objects given back on one
 * thread serve takers on another. Last in, first out: the object taken is the one used most recently.
 *
 * <p><b>Threads.</b> Thread-safe; each stripe is a stack under its own lock, held for a push or a pop only. An
 * object given back must no longer be used or referenced by its giver (nor by an operation in flight in the
 * kernel); it is handed out as it was given, so a user that needs it cleared clears it.
 *
 * @param <T> what is kept
 */
public final class Spares<T> {

    /** A power of two, at least the number of processors (so that the mask picks a stripe). */
    private static final int STRIPES = Integer.highestOneBit(Runtime.getRuntime().availableProcessors() * 2 - 1);

    private final Supplier<? extends T> maker;
    private final Stripe[] stripes = new Stripe[STRIPES];

    /**
     * @param maker makes a new object when no spare is left (on the taking thread; what it throws, e.g. an
     *              {@link OutOfMemoryError} for direct memory, propagates to {@link #take()})
     */
    public Spares(Supplier<? extends T> maker) {
        this.maker = maker;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    /** A spare if any stripe has one, else a new object. */
    @SuppressWarnings("unchecked")
    public T take() {
        int home = home();
        for (int i = 0; i < STRIPES; i++) {
            Object o = stripes[(home + i) & (STRIPES - 1)].pop();
            if (o != null) {
                return (T) o;
            }
        }
        return maker.get();
    }

    /** Keeps {@code spare} for a later {@link #take()}; the caller drops its reference. */
    public void give(T spare) {
        stripes[home()].push(spare);
    }

    /** Spares kept now (for tests and diagnostics). */
    public int spares() {
        int n = 0;
        for (Stripe s : stripes) {
            n += s.size();
        }
        return n;
    }

    private static int home() {
        return System.identityHashCode(Thread.currentThread()) & (STRIPES - 1);
    }

    /** A stack of spares; the array grows to the most ever kept at once, then allocates nothing. */
    private static final class Stripe {
        private Object[] stack = new Object[8];
        private int size;

        synchronized Object pop() {
            if (size == 0) {
                return null;
            }
            Object o = stack[--size];
            stack[size] = null;
            return o;
        }

        synchronized void push(Object o) {
            if (size == stack.length) {
                stack = Arrays.copyOf(stack, size * 2);
            }
            stack[size++] = o;
        }

        synchronized int size() {
            return size;
        }
    }
}
