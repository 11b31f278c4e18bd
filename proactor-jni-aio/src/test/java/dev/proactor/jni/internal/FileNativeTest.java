package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.DelegatingFileChannel;
import dev.proactor.jni.NativeTestSupport;
import java.io.FileInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file bindings: the descriptor of a JDK {@link FileChannel} (and none for other implementations), its
 * close-on-exec duplicate, {@code pread}, and {@code sendfile} to a socket, including {@code EAGAIN} on a full
 * non-blocking socket and 0 at the end of the file.
 */
class FileNativeTest {

    @TempDir
    Path dir;

    @BeforeEach
    void requireNativeLibrary() {
        NativeTestSupport.assumeNativeLibrary();
    }

    private Path file(int size) throws Exception {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        return Files.write(dir.resolve("data-" + size), data);
    }

    @Test
    void jdkFileChannelsExposeTheirDescriptorOthersDoNot() throws Exception {
        Path path = file(1000);
        byte[] expected = Files.readAllBytes(path);
        try (FileChannel channel = FileChannel.open(path);
                FileInputStream stream = new FileInputStream(path.toFile());
                FileChannel wrapper = new DelegatingFileChannel(FileChannel.open(path))) {
            int fd = FileNative.fdOf(channel);
            assertTrue(fd >= 0, () -> "fd " + fd);
            assertTrue(FileNative.fdOf(stream.getChannel()) >= 0);
            assertEquals(-ErrnoNative.EOPNOTSUPP, FileNative.fdOf(wrapper), "a wrapper's raw descriptor is not used");

            ByteBuffer buffer = ByteBuffer.allocateDirect(10);
            assertEquals(10, FileNative.pread(fd, buffer, 990));
            byte[] read = new byte[10];
            buffer.flip().get(read);
            assertArrayEquals(Arrays.copyOfRange(expected, 990, 1000), read);
            assertEquals(0, FileNative.pread(fd, buffer.clear(), 1000), "0 at the end of the file");
            assertEquals(0, channel.position(), "positional: the channel's position is untouched");
        }
        FileChannel closed = FileChannel.open(path);
        closed.close();
        assertEquals(-ErrnoNative.EBADF, FileNative.fdOf(closed));
    }

    @Test
    void theDuplicateIsCloseOnExecAndOutlivesTheChannel() throws Exception {
        Path path = file(100);
        int duplicate;
        try (FileChannel channel = FileChannel.open(path)) {
            int fd = FileNative.fdOf(channel);
            duplicate = FileNative.duplicate(fd);
            assertTrue(duplicate >= 0, () -> "dup: " + duplicate);
            assertNotEquals(fd, duplicate);
        }
        try {
            Path fdinfo = Path.of("/proc/self/fdinfo/" + duplicate);
            if (Files.exists(fdinfo)) {
                String flags = Files.readAllLines(fdinfo).stream().filter(l -> l.startsWith("flags:")).findFirst()
                        .orElseThrow().substring("flags:".length()).trim();
                assertTrue((Integer.parseInt(flags, 8) & 02000000) != 0, () -> "O_CLOEXEC missing: " + flags);
            }
            ByteBuffer buffer = ByteBuffer.allocateDirect(100);
            assertEquals(100, FileNative.pread(duplicate, buffer, 0), "the file stays readable after the close");
        } finally {
            assertEquals(0, IoNative.close(duplicate));
        }
    }

    @Test
    void sendfileMovesFileBytesToASocketUntilItIsFullAndStopsAtTheEnd() throws Exception {
        int size = 4 << 20;
        Path path = file(size);
        byte[] expected = Files.readAllBytes(path);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (FileChannel channel = FileChannel.open(path);
                ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0))) {
            server.setOption(StandardSocketOptions.SO_RCVBUF, 32 * 1024); // inherited: a small window
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                    SocketChannel peer = server.accept()) {
                client.setOption(StandardSocketOptions.SO_SNDBUF, 32 * 1024);
                client.configureBlocking(false);
                int socket = SocketNative.fdOf(client);
                int fd = FileNative.fdOf(channel);

                assertEquals(100, FileNative.transferTo(socket, fd, 7, 100));
                long sent = 100;
                long result;
                // The peer does not read: the socket fills up and sendfile says EAGAIN, long before 4 MiB.
                while ((result = FileNative.transferTo(socket, fd, 7 + sent, size - 7 - sent)) > 0) {
                    sent += result;
                }
                assertEquals(-ErrnoNative.EAGAIN, result);
                long total = sent;
                assertTrue(total < size - 7, () -> "sent " + total);
                assertEquals(0, channel.position(), "the file's position is not used");

                // Drain what was sent and compare.
                ByteBuffer received = ByteBuffer.allocate((int) total);
                while (received.hasRemaining()) {
                    peer.read(received);
                }
                assertArrayEquals(Arrays.copyOfRange(expected, 7, 7 + (int) total), received.array());

                assertEquals(0, FileNative.transferTo(socket, fd, size, 10), "0 at the end of the file");
                assertEquals(3, FileNative.transferTo(socket, fd, size - 3, 10), "what exists before the end");
            }
        }
    }
}
