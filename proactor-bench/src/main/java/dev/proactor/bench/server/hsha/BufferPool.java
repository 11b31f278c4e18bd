package dev.proactor.bench.server.hsha;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/** Direct read buffers shared by the reader thread (takes) and the workers (give back). */
final class BufferPool {
    static final int BUFFER_SIZE = 16 * 1024;
    private static final int MAX_POOLED = 16 * 1024;

    private final ArrayBlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(MAX_POOLED);

    ByteBuffer take() {
        ByteBuffer b = free.poll();
        if (b == null) {
            return ByteBuffer.allocateDirect(BUFFER_SIZE);
        }
        b.clear();
        return b;
    }

    void give(ByteBuffer buffer) {
        free.offer(buffer); // when the pool is full the buffer is left to the GC
    }
}
