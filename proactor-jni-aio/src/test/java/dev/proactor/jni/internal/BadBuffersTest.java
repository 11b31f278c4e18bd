package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeTestSupport;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Misused buffers are rejected in Java before any native call. The descriptor is -1 throughout: had a
 * call reached C it would have returned -EBADF instead of throwing.
 */
class BadBuffersTest {

    private static final int NO_FD = -1;

    @BeforeEach
    void requireNativeLibrary() {
        NativeTestSupport.assumeNativeLibrary();
    }

    @Test
    void heapBuffersAreRejected() {
        ByteBuffer heap = ByteBuffer.allocate(16);
        assertThrows(IllegalArgumentException.class, () -> IoNative.read(NO_FD, heap));
        assertThrows(IllegalArgumentException.class, () -> IoNative.write(NO_FD, heap));
        assertThrows(IllegalArgumentException.class, () -> SocketNative.recvfrom(NO_FD, heap, null));
        assertThrows(IllegalArgumentException.class, () -> SocketNative.sendto(NO_FD, heap, null));
        assertThrows(IllegalArgumentException.class, () -> new IovecArray(1).addWriteSource(heap));
        assertThrows(IllegalArgumentException.class, () -> DirectBuffers.address(heap.asReadOnlyBuffer()));
    }

    @Test
    void nullBuffersAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> IoNative.read(NO_FD, (ByteBuffer) null));
        assertThrows(IllegalArgumentException.class, () -> IoNative.write(NO_FD, (ByteBuffer) null));
        assertThrows(IllegalArgumentException.class, () -> new IovecArray(1).addReadTarget(null));
    }

    @Test
    void readOnlyBuffersCannotBeReadInto() {
        ByteBuffer readOnly = ByteBuffer.allocateDirect(16).asReadOnlyBuffer();
        assertThrows(IllegalArgumentException.class, () -> IoNative.read(NO_FD, readOnly));
        assertThrows(IllegalArgumentException.class, () -> SocketNative.recvfrom(NO_FD, readOnly, new Sockaddr()));
        assertThrows(IllegalArgumentException.class, () -> new IovecArray(1).addReadTarget(readOnly));
        // Writing from a read-only direct buffer is fine: the call reaches C and fails on the descriptor.
        assertEquals(-ErrnoNative.EBADF, IoNative.write(NO_FD, readOnly));
    }

    @Test
    void iovecArraysAreCheckedForDirectionCapacityAndContent() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        IovecArray sources = new IovecArray(1).addWriteSource(direct);
        assertThrows(IllegalArgumentException.class, () -> IoNative.readv(NO_FD, sources));
        assertThrows(IllegalArgumentException.class, () -> sources.addReadTarget(direct));
        assertThrows(IllegalStateException.class, () -> sources.addWriteSource(direct));
        assertThrows(IllegalArgumentException.class, () -> IoNative.writev(NO_FD, new IovecArray(2)));
        assertThrows(IllegalArgumentException.class, () -> new IovecArray(0));
        assertThrows(IllegalArgumentException.class, () -> new IovecArray(IoNative.IOV_MAX + 1));
        assertEquals(-ErrnoNative.EBADF, IoNative.writev(NO_FD, sources));
    }

    @Test
    void iovecArraysSkipBuffersWithNothingRemainingAndAdvanceFromWhatTheyRecorded() {
        ByteBuffer full = ByteBuffer.allocateDirect(4).position(4);
        ByteBuffer empty = ByteBuffer.allocateDirect(0);
        ByteBuffer a = ByteBuffer.allocateDirect(4);
        ByteBuffer b = ByteBuffer.allocateDirect(4).position(1);
        IovecArray targets = new IovecArray(2);
        targets.addReadTarget(full).addReadTarget(empty).addReadTarget(a).addReadTarget(b);
        assertEquals(2, targets.count(), "only the buffers with space take iovecs");
        assertTrue(targets.isFull());
        targets.advance(5);
        assertEquals(4, a.position());
        assertEquals(2, b.position());
        assertEquals(4, full.position());
        IovecArray nothing = new IovecArray(1).addWriteSource(empty).addWriteSource(full);
        assertEquals(0, nothing.count());
        assertThrows(IllegalArgumentException.class, () -> IoNative.writev(NO_FD, nothing), "empty: never a call");
    }

    @Test
    void nativeMemoryAndEventArraysAreBoundsChecked() {
        NativeMemory memory = NativeMemory.allocate(16);
        assertEquals(memory.address() + 8, memory.address(8, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> memory.address(8, 9));
        assertThrows(IndexOutOfBoundsException.class, () -> memory.address(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> NativeMemory.allocate(0));
        EpollEventArray events = new EpollEventArray(2);
        assertThrows(IndexOutOfBoundsException.class, () -> events.events(2));
        assertThrows(IndexOutOfBoundsException.class, () -> events.data(-1));
    }

    @Test
    void socketAddressesMustBeResolvedAndSet() {
        assertThrows(IllegalArgumentException.class,
                () -> new Sockaddr().set(InetSocketAddress.createUnresolved("example.invalid", 80)));
        assertThrows(IllegalArgumentException.class, () -> SocketNative.connect(NO_FD, new Sockaddr()));
    }

    @Test
    void fileCallsAreCheckedBeforeTheyReachC() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        assertThrows(IllegalArgumentException.class, () -> FileNative.pread(NO_FD, ByteBuffer.allocate(8), 0));
        assertThrows(IllegalArgumentException.class, () -> FileNative.pread(NO_FD, direct.asReadOnlyBuffer(), 0));
        assertThrows(IllegalArgumentException.class, () -> FileNative.pread(NO_FD, direct, -1));
        assertThrows(IllegalArgumentException.class, () -> FileNative.transferTo(NO_FD, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> FileNative.transferTo(0, NO_FD, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> FileNative.transferTo(0, 0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> FileNative.transferTo(0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> FileNative.transferTo(0, 0, 1, Long.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> FileNative.duplicate(NO_FD));
        assertThrows(IllegalArgumentException.class, () -> FileNative.fdOf(null));
        // A checked call with good arguments reaches C and fails on the descriptor.
        assertEquals(-ErrnoNative.EBADF, FileNative.pread(Integer.MAX_VALUE, direct, 0));
    }

    @Test
    void datagramCallsAreCheckedBeforeTheyReachC() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        assertThrows(IllegalArgumentException.class,
                () -> SocketNative.recvfrom(NO_FD, ByteBuffer.allocate(8), SocketNative.MSG_TRUNC, null));
        assertThrows(IllegalArgumentException.class,
                () -> SocketNative.recvfrom(NO_FD, direct.asReadOnlyBuffer(), SocketNative.MSG_TRUNC, null));
        assertThrows(IllegalArgumentException.class, () -> SocketNative.sendto(NO_FD, direct, new Sockaddr()));
        assertThrows(IllegalArgumentException.class,
                () -> new Sockaddr().setFor(SocketNative.AF_INET6, InetSocketAddress.createUnresolved("x.invalid", 1)));
        assertEquals(-ErrnoNative.EBADF, SocketNative.recvfrom(NO_FD, direct, SocketNative.MSG_TRUNC, null));
    }

    @Test
    void slicesAndPositionsGiveTheRightAddresses() {
        ByteBuffer direct = ByteBuffer.allocateDirect(32);
        long base = DirectBuffers.address(direct);
        direct.position(4);
        assertEquals(base, DirectBuffers.writableAddress(direct));
        assertEquals(base + 4, DirectBuffers.address(direct.slice()));
        assertEquals(base, DirectBuffers.address(direct.asReadOnlyBuffer()));
        assertThrows(IllegalArgumentException.class, () -> DirectBuffers.writableAddress(direct.asReadOnlyBuffer()));
    }

    @Test
    void rangesOutsideTheBufferAreRefusedBeforeTheyReachC() {
        ByteBuffer direct = ByteBuffer.allocateDirect(16);
        DirectBuffers.checkRange(direct, 0, 16);
        DirectBuffers.checkRange(direct, 16, 16);
        // Pairs a racing reader can see when another thread moves the buffer between its reads of the two fields.
        assertThrows(IllegalStateException.class, () -> DirectBuffers.checkRange(direct, 9, 8));
        assertThrows(IllegalStateException.class, () -> DirectBuffers.checkRange(direct, -1, 8));
        assertThrows(IllegalStateException.class, () -> DirectBuffers.checkRange(direct, 0, 17));
        // A limit lowered after the caller read it: the range is no longer the buffer's.
        ByteBuffer lowered = ByteBuffer.allocateDirect(16).limit(2);
        assertThrows(IllegalStateException.class, () -> DirectBuffers.checkRange(lowered, 8, 16));
    }
}
