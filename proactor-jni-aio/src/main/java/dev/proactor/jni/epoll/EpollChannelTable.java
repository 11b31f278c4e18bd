package dev.proactor.jni.epoll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Maps the 64-bit epoll user data of an event back to its channel without allocating: the low 32 bits
 * index a slot, the high 32 bits are the slot's generation, bumped when the slot is freed, so an event
 * collected before a channel closed never reaches a newer channel in the same slot.
 *
 * <p>{@link #get(long)} is lock-free (the leader calls it per event); changes take a lock.
 */
final class EpollChannelTable {

    private final Object lock = new Object();
    /** Replaced (under the lock) when it grows; elements are read with volatile semantics. */
    private volatile AtomicReferenceArray<EpollChannel> slots = new AtomicReferenceArray<>(64);
    /** Guarded by lock. */
    private int[] generations = new int[64];
    /** Freed slot indexes, a stack; guarded by lock. */
    private int[] free = new int[64];
    private int freeCount;
    /** Slots handed out at least once; guarded by lock. */
    private int highWater;

    /** Reserves a slot and returns the id that will identify its channel in epoll events. */
    long allocate() {
        synchronized (lock) {
            int index;
            if (freeCount > 0) {
                index = free[--freeCount];
            } else {
                if (highWater == slots.length()) {
                    grow();
                }
                index = highWater++;
            }
            return id(index, generations[index]);
        }
    }

    /** Makes {@code channel} findable by the id {@link #allocate()} gave. */
    void publish(long id, EpollChannel channel) {
        synchronized (lock) {
            slots.set(index(id), channel);
        }
    }

    /** Frees the slot of {@code id}; later events carrying it find nothing. Idempotent. */
    void release(long id) {
        synchronized (lock) {
            int index = index(id);
            if (generations[index] != generation(id)) {
                return;
            }
            slots.set(index, null);
            generations[index]++;
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, free.length * 2);
            }
            free[freeCount++] = index;
        }
    }

    /** The channel with this id, or {@code null} if it was released. Lock-free; allocates nothing. */
    EpollChannel get(long id) {
        AtomicReferenceArray<EpollChannel> current = slots;
        int index = index(id);
        if (index < 0 || index >= current.length()) {
            return null;
        }
        EpollChannel channel = current.get(index);
        return channel != null && channel.id() == id ? channel : null;
    }

    /** The channels published now, for closing the engine. */
    List<EpollChannel> snapshot() {
        synchronized (lock) {
            List<EpollChannel> result = new ArrayList<>();
            for (int i = 0; i < highWater; i++) {
                EpollChannel channel = slots.get(i);
                if (channel != null) {
                    result.add(channel);
                }
            }
            return result;
        }
    }

    private void grow() {
        AtomicReferenceArray<EpollChannel> old = slots;
        AtomicReferenceArray<EpollChannel> bigger = new AtomicReferenceArray<>(old.length() * 2);
        for (int i = 0; i < old.length(); i++) {
            bigger.set(i, old.get(i));
        }
        generations = Arrays.copyOf(generations, bigger.length());
        slots = bigger;
    }

    private static long id(int index, int generation) {
        return (long) generation << 32 | (index & 0xFFFF_FFFFL);
    }

    private static int index(long id) {
        return (int) id;
    }

    private static int generation(long id) {
        return (int) (id >>> 32);
    }
}
