package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contracts of {@link FileChannel} that programs rely on, written once and run against the JDK's channel (the
 * reference) and ours ({@link dev.proactor.nio2.ProactorFiles#open}) on every file engine, from platform threads,
 * and from virtual threads in the forked JDK 21+ run ({@link Callers}): byte-exact positional, relative,
 * scattering and gathering transfers (heap buffers larger than one bounce chunk included), end of file, append
 * mode, access modes, argument errors, a closed channel, truncate, force, map, transfers, locks, an interrupted
 * caller, many concurrent callers, and {@code O_DIRECT}. A concrete subclass names its
 * engine ({@link EngineUnderTest}). Waits are hang guards only; nothing asserts on time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class AbstractFileChannelConformanceTest {

    /** Row {@code FILE_CHANNEL} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<Nio2FileTarget> targets(TestInfo test) {
        return ConfigurationTable.fileChannels(Suite.FILE_CHANNEL, test);
    }

    private static final String NAME = "[{index}] {0}";
    private static final OpenOption[] RW = {StandardOpenOption.READ, StandardOpenOption.WRITE,
        StandardOpenOption.CREATE};

    @TempDir
    Path dir;

    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * The JDK's {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, looked up by name (this code is compiled into
     * the core module, which does not read {@code jdk.unsupported}; the tests run on the class path, which does).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static OpenOption jdkDirect() throws ClassNotFoundException {
        return (OpenOption) Enum.valueOf((Class) Class.forName("com.sun.nio.file.ExtendedOpenOption"), "DIRECT");
    }

    private static ByteBuffer buffer(boolean direct, int size) {
        return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    }

    private static byte[] bytes(ByteBuffer flipped) {
        byte[] b = new byte[flipped.remaining()];
        flipped.get(b);
        return b;
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void positionalReadsAndWritesMoveEveryByte(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("positional");
        byte[] data = random(1_500_000, 1);
        // Pieces of many sizes, heap and direct, some larger than one bounce chunk (256 KiB), in shuffled order.
        int[] sizes = {1, 4096, 700_000, 13, 65_536, 300_001, 429_449 - 13 - 1};
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, RW)) {
                    List<int[]> pieces = new ArrayList<>();
                    int at = 0;
                    for (int s : sizes) {
                        pieces.add(new int[] {at, s});
                        at += s;
                    }
                    pieces.add(new int[] {at, data.length - at});
                    java.util.Collections.shuffle(pieces, new Random(2));
                    for (int i = 0; i < pieces.size(); i++) {
                        int[] p = pieces.get(i);
                        ByteBuffer src = buffer(i % 2 == 0, p[1]).put(data, p[0], p[1]).flip();
                        assertEquals(p[1], ch.write(src, p[0]), "a file write writes every byte");
                        assertFalse(src.hasRemaining());
                    }
                    assertEquals(data.length, ch.size());
                    assertEquals(0, ch.position(), "positional writes leave the position");
                    for (int i = 0; i < pieces.size(); i++) {
                        int[] p = pieces.get(i);
                        ByteBuffer dst = buffer(i % 2 == 1, p[1]);
                        assertEquals(p[1], ch.read(dst, p[0]));
                        assertArrayEquals(Arrays.copyOfRange(data, p[0], p[0] + p[1]), bytes(dst.flip()),
                                "bytes at " + p[0]);
                    }
                    ByteBuffer whole = ByteBuffer.allocate(data.length);
                    assertEquals(data.length, ch.read(whole, 0), "a heap read fills the buffer up to the end");
                    assertArrayEquals(data, whole.array());
                }
            });
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void relativeReadsAndWritesAdvanceThePosition(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("relative");
        byte[] data = random(400_000, 3);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, RW)) {
                    assertEquals(100, ch.write(ByteBuffer.wrap(data, 0, 100)));
                    assertEquals(100, ch.position());
                    assertEquals(data.length - 100,
                            ch.write(ByteBuffer.allocateDirect(data.length - 100).put(data, 100, data.length - 100)
                                    .flip()));
                    assertEquals(data.length, ch.position());
                    assertSame(ch, ch.position(0));
                    ByteBuffer small = ByteBuffer.allocateDirect(1000);
                    assertEquals(1000, ch.read(small));
                    assertEquals(1000, ch.position());
                    ByteBuffer rest = ByteBuffer.allocate(data.length);
                    assertEquals(data.length - 1000, ch.read(rest));
                    assertEquals(data.length, ch.position());
                    assertArrayEquals(Arrays.copyOf(data, 1000), bytes(small.flip()));
                    assertArrayEquals(Arrays.copyOfRange(data, 1000, data.length), bytes(rest.flip()));
                    assertEquals(-1, ch.read(ByteBuffer.allocate(10)), "at the end");
                    assertEquals(data.length, ch.position(), "end of file leaves the position");
                    ch.position(data.length + 50);
                    assertEquals(-1, ch.read(ByteBuffer.allocateDirect(10)), "past the end");
                    assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {7, 8, 9})));
                    assertEquals(data.length + 53, ch.position());
                    assertEquals(data.length + 53, ch.size(), "a write past the end grows the file");
                    ByteBuffer gap = ByteBuffer.allocate(53);
                    assertEquals(53, ch.read(gap, data.length));
                    byte[] expected = new byte[53];
                    expected[50] = 7;
                    expected[51] = 8;
                    expected[52] = 9;
                    assertArrayEquals(expected, gap.array(), "the gap reads as zeros");
                }
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void scatteringReadsAndGatheringWritesMoveEveryByte(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("vectors");
        byte[] data = random(305_008, 4);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, RW)) {
                    ByteBuffer[] srcs = {ByteBuffer.wrap(data, 0, 3).slice(), ByteBuffer.allocate(0),
                        ByteBuffer.allocateDirect(5000).put(data, 3, 5000).flip(),
                        ByteBuffer.wrap(data, 5003, 300_000).slice(), ByteBuffer.wrap(data, 305_003, 5).slice()};
                    assertEquals(305_003, ch.write(srcs, 0, 4), "gathering writes every byte of the range");
                    assertEquals(5, srcs[4].remaining(), "a buffer outside the range is untouched");
                    assertEquals(5, ch.write(srcs, 4, 1));
                    assertEquals(data.length, ch.position());
                    ch.position(0);
                    ByteBuffer[] dsts = {ByteBuffer.allocate(2), ByteBuffer.allocate(0), ByteBuffer.allocateDirect(5000),
                        ByteBuffer.allocate(300_010), ByteBuffer.allocate(4)};
                    assertEquals(data.length, ch.read(dsts, 0, 4), "scattering stops short at the end");
                    assertEquals(data.length, ch.position());
                    assertEquals(4, dsts[4].remaining());
                    assertEquals(-1, ch.read(dsts, 3, 2), "then end of file");
                    ByteBuffer all = ByteBuffer.allocate(data.length);
                    for (int i = 0; i < 4; i++) {
                        all.put(dsts[i].flip());
                    }
                    assertArrayEquals(data, all.array());
                    assertThrows(IndexOutOfBoundsException.class, () -> ch.read(dsts, 3, 3));
                    assertThrows(IndexOutOfBoundsException.class, () -> ch.write(srcs, -1, 1));
                }
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void endOfFileAndEmptyBuffers(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("thousand");
        byte[] data = random(1000, 5);
        Files.write(file, data);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    assertEquals(-1, ch.read(ByteBuffer.allocate(10), 1000));
                    assertEquals(-1, ch.read(ByteBuffer.allocateDirect(10), 5000));
                    ByteBuffer across = ByteBuffer.allocate(100);
                    assertEquals(10, ch.read(across, 990), "a read across the end is short");
                    assertArrayEquals(Arrays.copyOfRange(data, 990, 1000), bytes(across.flip()));
                    assertEquals(0, ch.read(ByteBuffer.allocate(0), 0), "no space: nothing read");
                    assertEquals(0, ch.read(ByteBuffer.allocate(0)));
                    assertEquals(0, ch.write(ByteBuffer.allocate(0), 2000), "nothing to write");
                    assertEquals(0, ch.write(ByteBuffer.allocateDirect(0)));
                    assertEquals(1000, ch.size(), "an empty write does not grow the file");
                }
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void appendModeWritesAtTheEnd(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("append");
        Files.write(file, new byte[] {1, 2});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    assertEquals(2, ch.position(), "in append mode the position is the size");
                    assertEquals(2, ch.write(ByteBuffer.wrap(new byte[] {3, 4})));
                    assertEquals(4, ch.position());
                    ch.position(0);
                    assertEquals(1, ch.write(ByteBuffer.allocateDirect(1).put((byte) 5).flip()));
                    assertEquals(3, ch.write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {6}),
                        ByteBuffer.wrap(new byte[] {7, 8})}));
                    assertEquals(8, ch.size());
                    assertEquals(8, ch.position());
                }
            });
        }
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void eachModeRefusesTheOtherDirection(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("modes");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ro = f.open(file); FileChannel wo = f.open(file, StandardOpenOption.WRITE)) {
                    assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1)));
                    assertThrows(NonWritableChannelException.class, () -> ro.write(ByteBuffer.allocate(1), 0));
                    assertThrows(NonWritableChannelException.class,
                            () -> ro.write(new ByteBuffer[] {ByteBuffer.allocate(1)}));
                    assertThrows(NonWritableChannelException.class, () -> ro.truncate(0));
                    assertThrows(NonWritableChannelException.class, () -> ro.lock(0, 1, false));
                    assertThrows(NonReadableChannelException.class, () -> wo.read(ByteBuffer.allocate(1)));
                    assertThrows(NonReadableChannelException.class, () -> wo.read(ByteBuffer.allocate(1), 0));
                    assertThrows(NonReadableChannelException.class,
                            () -> wo.read(new ByteBuffer[] {ByteBuffer.allocate(1)}));
                    assertThrows(NonReadableChannelException.class, () -> wo.tryLock(0, 1, true));
                    assertEquals(3, ro.read(ByteBuffer.allocate(5), 0));
                    assertEquals(1, wo.write(ByteBuffer.wrap(new byte[] {9}), 0));
                }
            });
        }
        assertArrayEquals(new byte[] {9, 2, 3}, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void badArgumentsAreRefusedAtTheCall(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("arguments");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(1), -1));
                    assertThrows(IllegalArgumentException.class, () -> ch.write(ByteBuffer.allocate(1), -1));
                    assertThrows(IllegalArgumentException.class, () -> ch.position(-1));
                    assertThrows(IllegalArgumentException.class, () -> ch.truncate(-1));
                    ByteBuffer readOnly = ByteBuffer.allocate(4).asReadOnlyBuffer();
                    assertThrows(IllegalArgumentException.class, () -> ch.read(readOnly));
                    assertThrows(IllegalArgumentException.class, () -> ch.read(readOnly, 0));
                    assertThrows(IllegalArgumentException.class, () -> ch.read(new ByteBuffer[] {readOnly}));
                    assertThrows(NullPointerException.class, () -> ch.read((ByteBuffer) null));
                    assertThrows(NullPointerException.class, () -> ch.write((ByteBuffer) null, 0));
                    assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {4, 5, 6}).asReadOnlyBuffer(), 0),
                            "a read-only buffer can be written from");
                    assertEquals(0, ch.position(), "nothing moved the position");
                }
            });
        }
        assertArrayEquals(new byte[] {4, 5, 6}, Files.readAllBytes(file));
    }

    /**
     * A gathering write or a scattering read with a null buffer in its range throws {@link NullPointerException}
     * before it moves anything, as the JDK's: no byte written or read, the position unchanged.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aNullBufferInAGatheringWriteOrScatteringReadMovesNothing(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("null-buffer");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    ByteBuffer src = ByteBuffer.wrap(new byte[] {8, 9});
                    assertThrows(NullPointerException.class, () -> ch.write(new ByteBuffer[] {src, null}));
                    assertEquals(0, src.position(), "nothing written from the buffer before the null");
                    assertEquals(0, ch.position());
                    ByteBuffer dst = ByteBuffer.allocate(2);
                    assertThrows(NullPointerException.class, () -> ch.read(new ByteBuffer[] {dst, null}));
                    assertEquals(0, dst.position(), "nothing read into the buffer before the null");
                    assertEquals(0, ch.position());
                }
            });
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aClosedChannelRefusesEverything(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("closed");
        Files.write(file, new byte[] {1, 2, 3});
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                FileChannel ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                ch.close();
                assertFalse(ch.isOpen());
                ch.close(); // idempotent
                assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
                assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1), 0));
                assertThrows(ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1)));
                assertThrows(ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1), 0));
                assertThrows(ClosedChannelException.class, ch::position);
                assertThrows(ClosedChannelException.class, () -> ch.position(0));
                assertThrows(ClosedChannelException.class, ch::size);
                assertThrows(ClosedChannelException.class, () -> ch.truncate(0));
                assertThrows(ClosedChannelException.class, () -> ch.force(true));
                assertThrows(ClosedChannelException.class, () -> ch.lock());
                assertThrows(ClosedChannelException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 1));
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void truncateShrinksTheFileAndThePosition(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("truncate");
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, RW)) {
                    ch.write(ByteBuffer.wrap(random(100, 6)));
                    ch.position(80);
                    assertSame(ch, ch.truncate(50));
                    assertEquals(50, ch.size());
                    assertEquals(50, ch.position(), "a position past the new size moves to it");
                    ch.truncate(70);
                    assertEquals(50, ch.size(), "a larger size changes nothing");
                    ch.position(10);
                    ch.truncate(20);
                    assertEquals(10, ch.position());
                    assertEquals(20, ch.size());
                }
            });
        }
        assertEquals(20, Files.size(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void forceMapAndTransfersWorkOnTheSameFile(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("transfers");
        Path other = dir.resolve("other");
        byte[] data = random(200_000, 7);
        Files.write(other, data);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                try (FileChannel ch = f.open(file, RW); FileChannel jdk = FileChannel.open(other)) {
                    assertEquals(data.length, ch.transferFrom(jdk, 0, data.length));
                    assertEquals(0, ch.position(), "transferFrom leaves this channel's position");
                    ch.force(true);
                    MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, data.length);
                    assertArrayEquals(data, bytes(map));
                    Path copy = dir.resolve("copy");
                    try (FileChannel out = FileChannel.open(copy, StandardOpenOption.WRITE,
                            StandardOpenOption.CREATE_NEW)) {
                        long n = 0;
                        while (n < data.length) {
                            n += ch.transferTo(n, data.length - n, out);
                        }
                    }
                    assertArrayEquals(data, Files.readAllBytes(copy));
                    // Our channel as the other side of the JDK's transfers: relative reads and writes.
                    Path back = dir.resolve("back");
                    try (FileChannel in = FileChannel.open(back, StandardOpenOption.WRITE,
                            StandardOpenOption.CREATE_NEW)) {
                        ch.position(100);
                        assertEquals(data.length - 100, in.transferFrom(ch, 0, data.length));
                        assertEquals(data.length, ch.position(), "the source's position advanced");
                    }
                    assertArrayEquals(Arrays.copyOfRange(data, 100, data.length), Files.readAllBytes(back));
                }
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void locksBelongToTheChannelAndAreExclusiveInTheJvm(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("locks");
        Files.write(file, new byte[100]);
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                FileChannel ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = ch.lock(0, 10, false);
                assertSame(ch, lock.acquiredBy());
                assertSame(ch, lock.channel());
                assertTrue(lock.isValid());
                assertFalse(lock.isShared());
                assertEquals(0, lock.position());
                assertEquals(10, lock.size());
                assertThrows(OverlappingFileLockException.class, () -> ch.lock(5, 10, true));
                assertThrows(OverlappingFileLockException.class, () -> ch.tryLock(0, 1, false));
                FileLock shared = ch.tryLock(20, 10, true);
                assertTrue(shared.isShared());
                assertSame(ch, shared.acquiredBy());
                lock.release();
                assertFalse(lock.isValid());
                FileLock again = ch.lock(0, 10, false);
                assertTrue(again.isValid());
                ch.close();
                assertFalse(again.isValid(), "closing the channel releases its locks");
                assertFalse(shared.isValid());
                assertThrows(ClosedChannelException.class, again::release);
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void anInterruptedCallerClosesTheChannel(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("interrupt");
        Files.write(file, random(5000, 8));
        try (Nio2Files f = target.open()) {
            for (int op = 0; op < 4; op++) {
                int which = op;
                Callers.call(() -> {
                    FileChannel ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    Thread.currentThread().interrupt();
                    try {
                        switch (which) {
                            case 0 -> assertThrows(ClosedByInterruptException.class,
                                    () -> ch.read(ByteBuffer.allocate(10), 0));
                            case 1 -> assertThrows(ClosedByInterruptException.class,
                                    () -> ch.write(ByteBuffer.allocateDirect(10)));
                            case 2 -> assertThrows(ClosedByInterruptException.class,
                                    () -> ch.read(new ByteBuffer[] {ByteBuffer.allocate(10)}));
                            default -> assertThrows(ClosedByInterruptException.class, ch::size);
                        }
                        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status stays set");
                        assertFalse(ch.isOpen(), "the interrupt closed the channel");
                    } finally {
                        Thread.interrupted();
                    }
                    assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1), 0));
                });
            }
        }
        assertArrayEquals(random(5000, 8), Files.readAllBytes(file), "nothing was written");
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void manyCallersReadAndWriteAtOnceByteExact(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("concurrent");
        int callers = 64;
        int block = 4096;
        byte[] data = random(callers * 16 * block, 9);
        try (Nio2Files f = target.open()) {
            try (FileChannel ch = f.open(file, RW)) {
                // Every caller writes its 16 blocks, then reads 32 random blocks of the whole file once all wrote.
                java.util.concurrent.CountDownLatch written = new java.util.concurrent.CountDownLatch(callers);
                java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(callers);
                AtomicReference<Throwable> failure = new AtomicReference<>();
                for (int c = 0; c < callers; c++) {
                    int me = c;
                    Callers.start(() -> {
                        try {
                            for (int b = 0; b < 16; b++) {
                                int at = (me * 16 + b) * block;
                                ByteBuffer src = buffer(b % 2 == 0, block).put(data, at, block).flip();
                                assertEquals(block, ch.write(src, at));
                            }
                            written.countDown();
                            assertTrue(written.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard");
                            Random r = new Random(me);
                            for (int i = 0; i < 32; i++) {
                                int at = r.nextInt(data.length / block) * block;
                                ByteBuffer dst = buffer(i % 2 == 1, block);
                                assertEquals(block, ch.read(dst, at));
                                assertArrayEquals(Arrays.copyOfRange(data, at, at + block), bytes(dst.flip()),
                                        "block at " + at);
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                            written.countDown();
                        } finally {
                            finished.countDown();
                        }
                    });
                }
                assertTrue(finished.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: callers never ended");
                assertNull(failure.get(), () -> "a caller failed: " + failure.get());
                assertEquals(data.length, ch.size());
            }
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void directIoMovesAlignedBlocks(Nio2FileTarget target) throws Exception {
        Path file = dir.resolve("direct");
        byte[] data = random(4 * 4096, 10);
        OpenOption direct = jdkDirect();
        try (Nio2Files f = target.open()) {
            if (!f.hasDirectIo()) {
                assertThrows(UnsupportedOperationException.class,
                        () -> f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                                StandardOpenOption.CREATE, direct), "the thread-pool engine has no O_DIRECT");
                return;
            }
            Callers.call(() -> {
                FileChannel ch;
                try {
                    ch = f.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                            direct);
                } catch (IOException e) {
                    org.junit.jupiter.api.Assumptions.assumeTrue(false, "no O_DIRECT here: " + e);
                    return;
                }
                try (ch) {
                    ByteBuffer aligned = ByteBuffer.allocateDirect(data.length + 4096).alignedSlice(4096)
                            .limit(data.length);
                    aligned.put(data).flip();
                    assertEquals(2 * 4096, ch.write(aligned.slice(0, 2 * 4096), 0), "direct buffer");
                    assertEquals(2 * 4096, ch.write(ByteBuffer.wrap(data, 2 * 4096, 2 * 4096), 2 * 4096),
                            "heap buffer");
                    if (!f.isJdk()) {
                        // JDK 17's own channel fails this read with a NullPointerException in
                        // sun.nio.ch.Util.free (a cached aligned temporary buffer is a slice without a cleaner):
                        // heap reads through a bounce buffer are checked on ours only.
                        ByteBuffer in = ByteBuffer.allocate(data.length);
                        assertEquals(data.length, ch.read(in, 0));
                        assertArrayEquals(data, in.array());
                    }
                    ByteBuffer din = ByteBuffer.allocateDirect(data.length + 4096).alignedSlice(4096)
                            .limit(data.length);
                    assertEquals(data.length, ch.read(din, 0));
                    assertArrayEquals(data, bytes(din.flip()));
                    assertThrows(IOException.class, () -> ch.read(ByteBuffer.allocate(4096), 1),
                            "a misaligned position");
                }
            });
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void virtualReadersWaitingForTheEngineLeaveTheCarrierToOthers(Nio2FileTarget target) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(!target.isJdk(),
                "ours only: the JDK's channel blocks its carrier in the system call");
        org.junit.jupiter.api.Assumptions.assumeTrue(Callers.virtual(),
                "virtual callers only: the forked JDK 21+ run with one carrier");
        int readers = 8;
        byte[] data = random(readers * 4096, 16);
        Path file = dir.resolve("waiting");
        Files.write(file, data);
        target.open().close(); // skips the test where the engine is unavailable
        try (dev.proactor.Demultiplexor held = dev.proactor.Demultiplexor.open(target.config())) {
            // Not started: the engine completes the reads, but no thread dispatches a completion until start().
            FileChannel ch = dev.proactor.nio2.ProactorFiles.open(held, file, StandardOpenOption.READ);
            ByteBuffer[] buffers = new ByteBuffer[readers];
            List<Thread> threads = new ArrayList<>();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(readers);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int i = 0; i < readers; i++) {
                int me = i;
                buffers[i] = buffer(i % 2 == 0, 4096);
                threads.add(Callers.start(() -> {
                    try {
                        assertEquals(4096, ch.read(buffers[me], me * 4096L));
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        done.countDown();
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Outcome.GUARD_SECONDS);
            for (Thread t : threads) {
                while (t.getState() != Thread.State.WAITING) {
                    assertTrue(System.nanoTime() - deadline < 0, "hang guard: a reader never parked");
                    assertTrue(t.isAlive(), "a reader ended before any completion was dispatched");
                    Thread.sleep(1);
                }
            }
            java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
            Callers.start(ran::countDown);
            assertTrue(ran.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS),
                    "hang guard: no other virtual thread ran while readers waited (pinned carrier?)");
            assertEquals(readers, done.getCount(), "no read completes before its completion is dispatched");
            held.start(1);
            assertTrue(done.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: readers never finished");
            assertNull(failure.get(), () -> "a reader failed: " + failure.get());
            for (int i = 0; i < readers; i++) {
                assertArrayEquals(Arrays.copyOfRange(data, i * 4096, (i + 1) * 4096), bytes(buffers[i].flip()),
                        "reader " + i);
            }
            ch.close();
        }
    }

    /**
     * A /proc file reports size 0 and cannot be served by every kernel interface (Linux AIO answers {@code EINVAL}
     * for it), yet a read loop takes its text to the end, heap and direct, as on the JDK's channel.
     */
    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aProcFileIsReadToItsEndThoughItsSizeIsZero(Nio2FileTarget target) throws Exception {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(status), "needs Linux /proc");
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                for (boolean direct : new boolean[] {false, true}) {
                    try (FileChannel ch = f.open(status, StandardOpenOption.READ)) {
                        ByteBuffer dst = direct ? ByteBuffer.allocateDirect(64 << 10) : ByteBuffer.allocate(64 << 10);
                        while (ch.read(dst) >= 0) {
                            assertTrue(dst.hasRemaining(), "a status file fits 64 KiB");
                        }
                        String text = new String(bytes(dst.flip()), java.nio.charset.StandardCharsets.US_ASCII);
                        assertTrue(text.startsWith("Name:"), () -> "read " + text);
                    }
                }
            });
        }
    }

    // ---------------------------------------------------------------- files without a position (a FIFO)

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aFifoIsReadAndWrittenAtItsOwnPositionAndHasNoOther(Nio2FileTarget target) throws Exception {
        Path fifo = Fifo.make(dir, "fifo");
        try (Nio2Files f = target.open()) {
            Callers.call(() -> {
                // READ and WRITE: opening a FIFO for both does not wait for another side (Linux).
                try (FileChannel ch = f.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    assertEquals(5, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5})), "a relative heap write");
                    assertEquals(2, ch.write(ByteBuffer.allocateDirect(2).put(new byte[] {6, 7}).flip()));
                    ByteBuffer three = ByteBuffer.allocate(3);
                    assertEquals(3, ch.read(three), "a relative read: read(2), not pread(2)");
                    assertArrayEquals(new byte[] {1, 2, 3}, three.array());
                    ByteBuffer[] two = {ByteBuffer.allocate(2), ByteBuffer.allocateDirect(10)};
                    assertEquals(4, ch.read(two), "a scattering read takes what is there");
                    assertArrayEquals(new byte[] {4, 5}, two[0].array());
                    assertArrayEquals(new byte[] {6, 7}, bytes(two[1].flip()));
                    // Exactly what fills the first buffer: the read returns it, it does not wait for more.
                    assertEquals(2, ch.write(ByteBuffer.wrap(new byte[] {8, 9})));
                    ByteBuffer[] full = {ByteBuffer.allocate(2), ByteBuffer.allocate(10)};
                    assertEquals(2, ch.read(full), "a stream read returns what it has, never waits for more");
                    assertArrayEquals(new byte[] {8, 9}, full[0].array());
                    assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {10, 11, 12})));
                    ByteBuffer large = ByteBuffer.allocate(300_000);
                    assertEquals(3, ch.read(large), "a heap read larger than a bounce chunk");
                    assertArrayEquals(new byte[] {10, 11, 12}, bytes(large.flip()));
                    // No position: what needs one fails as lseek(2) and pread(2) do ("Illegal seek").
                    assertThrows(IOException.class, ch::position);
                    assertThrows(IOException.class, () -> ch.position(0));
                    assertThrows(IOException.class, () -> ch.read(ByteBuffer.allocate(1), 0));
                    assertThrows(IOException.class, () -> ch.write(ByteBuffer.allocate(1), 0));
                    assertEquals(0, ch.read(ByteBuffer.allocate(0), 0), "nothing to read: no system call");
                    assertEquals(0, ch.size());
                    assertEquals(1, ch.write(ByteBuffer.wrap(new byte[] {13})), "the channel still works");
                    ByteBuffer last = ByteBuffer.allocateDirect(1);
                    assertEquals(1, ch.read(last));
                    assertEquals(13, last.get(0));
                }
            });
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void aReaderWaitingOnAnEmptyFifoIsEndedByClose(Nio2FileTarget target) throws Exception {
        Path fifo = Fifo.make(dir, "closed");
        try (Nio2Files f = target.open()) {
            FileChannel ch = f.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            ByteBuffer dst = ByteBuffer.allocate(10);
            Runnable read = () -> {
                try {
                    ch.read(dst);
                } catch (Throwable e) {
                    outcome.set(e);
                }
                done.countDown();
            };
            // The JDK's reader is a platform thread in every run: closing the JDK's FileChannel while a virtual
            // thread is blocked in its read(2) of a FIFO hung inside the JDK (JDK 25, close waiting for the reader to
            // leave) twice in about a hundred forked runs. Ours is read on the callers of the run, virtual included.
            Thread reader = f.isJdk() ? new Thread(read, "jdk-fifo-reader") : Callers.start(read);
            if (f.isJdk()) {
                reader.start();
            }
            if (!f.isJdk()) {
                // Ours parks while its read waits in the engine (the JDK's thread sits in read(2), which no state
                // tells from running: it may be closed before it blocks, hence ClosedChannelException below).
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Outcome.GUARD_SECONDS);
                while (reader.getState() != Thread.State.WAITING) {
                    assertTrue(System.nanoTime() - deadline < 0, "hang guard: the reader never parked");
                    Thread.sleep(1);
                }
            }
            ch.close();
            assertTrue(done.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: close did not end the read");
            assertTrue(outcome.get() instanceof ClosedChannelException, () -> "ended by " + outcome.get());
            if (!f.isJdk()) {
                assertTrue(outcome.get() instanceof java.nio.channels.AsynchronousCloseException,
                        () -> "a read blocked when the channel closed: " + outcome.get());
            }
            assertEquals(0, dst.position(), "nothing was read");
        }
    }

    @ParameterizedTest(name = NAME)
    @MethodSource("targets")
    void virtualReadersWaitingOnAnEmptyFifoLeaveTheCarrierToOthers(Nio2FileTarget target) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(!target.isJdk(),
                "ours only: the JDK's channel blocks its carrier in the system call");
        org.junit.jupiter.api.Assumptions.assumeTrue(Callers.virtual(),
                "virtual callers only: the forked JDK 21+ run with one carrier");
        Path fifo = Fifo.make(dir, "empty");
        int readers = 64;
        int channels = 4;
        int size = 64; // readers * size = 4096 = PIPE_BUF: one atomic write feeds them all
        try (Nio2Files f = target.open()) {
            FileChannel[] chs = new FileChannel[channels];
            for (int i = 0; i < channels; i++) {
                chs[i] = f.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            java.util.concurrent.atomic.AtomicLong ticks = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Callers.startVirtual(() -> {
                while (!stop.get()) {
                    ticks.incrementAndGet();
                    try {
                        Thread.sleep(1); // parks: the readers get the carrier in between
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(readers);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(readers);
            ByteBuffer[] got = new ByteBuffer[readers];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int i = 0; i < readers; i++) {
                int me = i;
                got[i] = buffer(i % 2 == 1, size);
                Callers.startVirtual(() -> {
                    started.countDown();
                    try {
                        assertEquals(size, chs[me % channels].read(got[me]));
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        done.countDown();
                    }
                });
            }
            try {
                assertTrue(started.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS),
                        "hang guard: the readers never all ran (one holds the only carrier in its read?)");
                long before = ticks.get();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Outcome.GUARD_SECONDS);
                while (ticks.get() < before + 3) {
                    assertTrue(System.nanoTime() - deadline < 0,
                            "hang guard: the ticker made no progress while the readers waited (pinned carrier?)");
                    Thread.sleep(1);
                }
                assertEquals(readers, done.getCount(), "no reader finished: the FIFO is empty");
            } finally {
                stop.set(true);
                // Feed every reader, passing or not, so none is left blocked: chunk k is filled with byte k.
                byte[] data = new byte[readers * size];
                for (int k = 0; k < readers; k++) {
                    Arrays.fill(data, k * size, (k + 1) * size, (byte) k);
                }
                try (FileChannel writer = FileChannel.open(fifo, StandardOpenOption.WRITE)) {
                    assertEquals(data.length, writer.write(ByteBuffer.wrap(data)));
                }
            }
            assertTrue(done.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: readers never finished");
            assertNull(failure.get(), () -> "a reader failed: " + failure.get());
            boolean[] seen = new boolean[readers];
            for (int i = 0; i < readers; i++) {
                byte[] b = bytes(got[i].flip());
                assertEquals(size, b.length, "reader " + i);
                int k = b[0];
                for (byte x : b) {
                    assertEquals(k, x, "reader " + i + " got one whole chunk");
                }
                assertFalse(seen[k], "chunk " + k + " read twice");
                seen[k] = true;
            }
        }
    }
}
