package dev.proactor.jni.uring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The request slot table of one {@link IoUringEngine}: maps the user data of a request's SQEs, a slot number, back
 * to the direction whose request it is. A slot is taken with a request's first SQE and freed at its last CQE; a
 * multishot receive ({@link IoUringMultishotRecv}) holds one of its own from its arming to its last CQE.
 *
 * <p>Thread-safe: every method takes the table's lock. Any starting thread allocates, and frees a slot whose request
 * never reached the ring; the leader (or quiesce, with no leader) looks slots up and frees them; the closing thread
 * counts them and keeps what those left point at ({@link IoUringLeftovers}).
 */
final class IoUringSlots {

    /** Direction of each slot in the ring (see the class documentation). */
    private final Object lock = new Object();
    private IoUringDirection[] slots = new IoUringDirection[256];
    private int[] freeSlots = new int[256];
    private int freeCount;
    private int nextSlot;

    int allocate(IoUringDirection dir) {
        synchronized (lock) {
            int slot;
            if (freeCount > 0) {
                slot = freeSlots[--freeCount];
            } else {
                if (nextSlot == slots.length) {
                    slots = Arrays.copyOf(slots, slots.length * 2);
                    freeSlots = Arrays.copyOf(freeSlots, freeSlots.length * 2);
                }
                slot = nextSlot++;
            }
            slots[slot] = dir;
            return slot;
        }
    }

    void free(int slot) {
        synchronized (lock) {
            slots[slot] = null;
            freeSlots[freeCount++] = slot;
        }
    }

    int inUse() {
        synchronized (lock) {
            return nextSlot - freeCount;
        }
    }

    /** The directions whose requests hold a slot now (the engine's close: those still in the ring). */
    List<IoUringDirection> inFlight() {
        synchronized (lock) {
            List<IoUringDirection> taken = new ArrayList<>();
            for (int i = 0; i < nextSlot; i++) {
                if (slots[i] != null) {
                    taken.add(slots[i]);
                }
            }
            return taken;
        }
    }

    /** The direction in the slot a CQE's {@code userData} names, or null if that slot is free. */
    IoUringDirection get(long userData) {
        synchronized (lock) {
            return userData < nextSlot ? slots[(int) userData] : null;
        }
    }
}
