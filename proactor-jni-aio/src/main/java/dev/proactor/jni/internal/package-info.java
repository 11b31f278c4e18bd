/**
 * Raw JNI bindings only: the classes that hold {@code native} methods, the loading and registration of the
 * library, and the native data layouts and guards those methods take; not exported by the module. What the
 * engines share above them (sockets, bounce blocks, a direction's scratch memory, {@code O_DIRECT} checks) is in
 * {@code dev.proactor.jni.engine}.
 *
 * <p>Each {@code *Native} class mirrors one C file of {@code src/main/c}: its {@code native} methods are
 * registered by that file's table, and its constants (flags, errno values, struct sizes and offsets) are
 * fetched from C once, at class initialisation, through {@link dev.proactor.jni.internal.NativeConstants}.
 *
 * <p>Methods taking a {@code long} address are unchecked: the address must come from
 * {@link dev.proactor.jni.internal.DirectBuffers} or {@link dev.proactor.jni.internal.NativeMemory} of a
 * buffer the caller keeps reachable, and the length must lie within it. The overloads taking
 * {@link java.nio.ByteBuffer}s, {@link dev.proactor.jni.internal.IovecArray}s, etc. check everything and
 * throw {@link java.lang.IllegalArgumentException} on misuse, or {@link java.lang.IllegalStateException} for a
 * buffer changed by another thread or whose memory was freed
 * ({@link dev.proactor.jni.internal.DirectBuffers#checkRange}); engines use the unchecked forms on their hot
 * path only with addresses and lengths they derived through those checks, from one read of each buffer's
 * position and limit.
 */
package dev.proactor.jni.internal;
