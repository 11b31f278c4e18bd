package dev.proactor.internal;

import java.util.Arrays;

/**
 * Binary min-heap of pending timers ordered by deadline, then by scheduling sequence (so equal deadlines fire
 * in scheduling order). Each timer knows its index, so removal is O(log n). Not thread-safe: guarded by the
 * dispatcher lock. Grows by doubling; no allocation once it has reached its working size.
 */
final class TimerQueue {

    private TimerSlot[] heap = new TimerSlot[16];
    private int size;
    private long nextSequence;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The earliest deadline; only valid when not empty. */
    long firstDeadline() {
        return heap[0].deadline;
    }

    /** Adds a timer that is not in the heap. */
    void add(TimerSlot t, long deadline) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        t.deadline = deadline;
        t.sequence = nextSequence++;
        t.heapIndex = size;
        heap[size++] = t;
        siftUp(t.heapIndex);
    }

    /** Removes {@code t} if it is in the heap. */
    boolean remove(TimerSlot t) {
        int i = t.heapIndex;
        if (i < 0 || i >= size || heap[i] != t) {
            return false;
        }
        size--;
        TimerSlot last = heap[size];
        heap[size] = null;
        t.heapIndex = -1;
        if (i != size) {
            heap[i] = last;
            last.heapIndex = i;
            siftDown(i);
            siftUp(last.heapIndex);
        }
        return true;
    }

    /** Removes and returns the earliest timer if its deadline is at or before {@code now}, else null. */
    TimerSlot pollExpired(long now) {
        if (size == 0 || heap[0].deadline - now > 0) {
            return null;
        }
        TimerSlot t = heap[0];
        remove(t);
        return t;
    }

    /** Removes every timer (used at close: pending timers never fire after the demultiplexor closed). */
    void clear() {
        for (int i = 0; i < size; i++) {
            heap[i].heapIndex = -1;
            heap[i] = null;
        }
        size = 0;
    }

    private boolean less(TimerSlot a, TimerSlot b) {
        long d = a.deadline - b.deadline;
        return d < 0 || (d == 0 && a.sequence < b.sequence);
    }

    private void siftUp(int i) {
        TimerSlot t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            TimerSlot p = heap[parent];
            if (!less(t, p)) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = t;
        t.heapIndex = i;
    }

    private void siftDown(int i) {
        TimerSlot t = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && less(heap[right], heap[child])) {
                child = right;
            }
            if (!less(heap[child], t)) {
                break;
            }
            heap[i] = heap[child];
            heap[i].heapIndex = i;
            i = child;
        }
        heap[i] = t;
        t.heapIndex = i;
    }
}
