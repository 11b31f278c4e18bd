package dev.proactor.jni.internal;

import java.nio.ByteBuffer;

/** Natives of {@code buffer.c}. Use {@link DirectBuffers}, which checks the buffer first. */
final class BufferNative {

    private BufferNative() {
    }

    /** {@code GetDirectBufferAddress}: the base address of a direct buffer, 0 for anything else. */
    static native long address(ByteBuffer buffer);
}
