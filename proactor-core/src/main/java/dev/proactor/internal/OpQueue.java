package dev.proactor.internal;

/**
 * Intrusive doubly linked FIFO of {@link OpSlot}s (seed §5.2): add, poll and remove of any element are O(1) and
 * allocate nothing. Not thread-safe; each owner guards its queue with its own lock.
 */
final class OpQueue {

    private OpSlot head;
    private OpSlot tail;
    private int size;

    boolean isEmpty() {
        return head == null;
    }

    int size() {
        return size;
    }

    OpSlot peek() {
        return head;
    }

    /** Appends {@code op}, which must not be in any queue. */
    void add(OpSlot op) {
        if (op.queue != null) {
            throw new IllegalStateException("operation already queued: " + op);
        }
        op.queue = this;
        op.next = null;
        op.prev = tail;
        if (tail == null) {
            head = op;
        } else {
            tail.next = op;
        }
        tail = op;
        size++;
    }

    /** Puts {@code op}, which must not be in any queue, at the head. */
    void addFirst(OpSlot op) {
        if (op.queue != null) {
            throw new IllegalStateException("operation already queued: " + op);
        }
        op.queue = this;
        op.prev = null;
        op.next = head;
        if (head == null) {
            tail = op;
        } else {
            head.prev = op;
        }
        head = op;
        size++;
    }

    /** Removes and returns the head, or {@code null}. */
    OpSlot poll() {
        OpSlot op = head;
        if (op != null) {
            unlink(op);
        }
        return op;
    }

    /** Removes {@code op} if it is in this queue. */
    boolean remove(OpSlot op) {
        if (op.queue != this) {
            return false;
        }
        unlink(op);
        return true;
    }

    /** Whether {@code op} is in this queue. */
    boolean contains(OpSlot op) {
        return op.queue == this;
    }

    /** Moves every element of this queue to the end of {@code target}, keeping the order. */
    void drainTo(OpQueue target) {
        for (OpSlot op = poll(); op != null; op = poll()) {
            target.add(op);
        }
    }

    private void unlink(OpSlot op) {
        OpSlot p = op.prev;
        OpSlot n = op.next;
        if (p == null) {
            head = n;
        } else {
            p.next = n;
        }
        if (n == null) {
            tail = p;
        } else {
            n.prev = p;
        }
        op.next = null;
        op.prev = null;
        op.queue = null;
        size--;
    }
}
