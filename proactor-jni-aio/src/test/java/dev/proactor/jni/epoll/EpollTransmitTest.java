package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.conformance.DelegatingFileChannel;
import dev.proactor.jni.NativeTestSupport;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * File transmission inside the epoll engine: {@code sendfile} for the JDK's file channels, the copying path for
 * other implementations, and the engine's duplicate of the file descriptor, which must be gone once the
 * transmission completes, is cancelled, or its channel closes, and which must not let a transmission go on
 * from a file the user closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpollTransmitTest {

    /** engineScratch values of {@link EpollTransmit}: sendfile, and copying through the channel's read. */
    private static final long SENDFILE = 1;
    private static final long CHANNEL_READ = 3;
    private static final int SIZE = 4 << 20;

    @TempDir
    Path dir;

    private Path path;
    private EngineDriver driver;
    private ServerSocketChannel server;
    private SocketChannel client;
    private SocketChannel peer;
    private EngineChannel channel;

    @BeforeEach
    void setUp() throws Exception {
        NativeTestSupport.assumeEpoll();
        byte[] data = new byte[SIZE];
        new Random(9).nextBytes(data);
        path = Files.write(dir.resolve("file"), data);
        driver = new EngineDriver();
        server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_RCVBUF, 32 * 1024); // small windows: pending soon
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SocketChannel.open(server.getLocalAddress());
        client.setOption(StandardSocketOptions.SO_SNDBUF, 32 * 1024);
        peer = server.accept();
        peer.configureBlocking(false);
        channel = driver.engine.register(client);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (driver != null) {
            driver.close(); // closes the registered channel too
            peer.close();
            server.close();
        }
    }

    /** Reads what the peer can without blocking into the checksum; returns the bytes read. */
    private long drain(CRC32 crc) {
        ByteBuffer buffer = ByteBuffer.allocate(256 * 1024);
        long total = 0;
        try {
            for (int n = peer.read(buffer); n > 0; n = peer.read(buffer.clear())) {
                crc.update(buffer.array(), 0, n);
                total += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return total;
    }

    private IoRequest transmit(FileChannel file, long position, long count, ByteBuffer header, ByteBuffer trailer) {
        return new IoRequest(this).prepare(OpKind.TRANSMIT_FILE, channel)
                .transmit(file, position, count, header, trailer);
    }

    private long expectedCrc(String header, long position, long count, String trailer) throws IOException {
        byte[] data = Files.readAllBytes(path);
        CRC32 crc = new CRC32();
        crc.update(header.getBytes(StandardCharsets.US_ASCII));
        crc.update(data, (int) position, (int) count);
        crc.update(trailer.getBytes(StandardCharsets.US_ASCII));
        return crc.getValue();
    }

    private void sendsEverything(FileChannel file, long expectedMode) throws IOException {
        long baseline = EngineDriver.descriptorsOf(path);
        CRC32 crc = new CRC32();
        long[] received = {0};
        IoRequest request = transmit(file, 5, SIZE - 10, StandardCharsets.US_ASCII.encode("head"),
                ByteBuffer.allocateDirect(4).put("tail".getBytes(StandardCharsets.US_ASCII)).flip());
        assertEquals(StartResult.PENDING, driver.run(request, () -> received[0] += drain(crc)));
        assertNull(request.error());
        assertEquals(SIZE - 10, request.fileBytes());
        assertEquals(SIZE - 10 + 8, request.bytes());
        assertEquals(expectedMode, request.engineScratch(), "the way the file bytes went");
        received[0] += drain(crc);
        while (received[0] < request.bytes()) {
            received[0] += drain(crc);
        }
        assertEquals(request.bytes(), received[0]);
        assertEquals(expectedCrc("head", 5, SIZE - 10, "tail"), crc.getValue());
        assertEquals(baseline, EngineDriver.descriptorsOf(path), "the engine's duplicate is closed");
    }

    @Test
    void aJdkFileChannelGoesWithSendfile() throws Exception {
        try (FileChannel file = FileChannel.open(path)) {
            sendsEverything(file, SENDFILE);
            assertEquals(0, file.position());
        }
    }

    @Test
    void anotherFileChannelImplementationIsCopiedThroughItsOwnRead() throws Exception {
        try (FileChannel file = new DelegatingFileChannel(FileChannel.open(path))) {
            sendsEverything(file, CHANNEL_READ);
        }
    }

    /** Starts a transmission of the whole file that the full socket leaves pending. */
    private IoRequest pending(FileChannel file) {
        IoRequest request = transmit(file, 0, SIZE, null, null);
        assertEquals(StartResult.PENDING, driver.engine.start(request));
        assertTrue(request.fileBytes() > 0 && request.fileBytes() < SIZE, () -> "sent " + request.fileBytes());
        return request;
    }

    @Test
    void cancelReleasesTheDuplicateDescriptor() throws Exception {
        try (FileChannel file = FileChannel.open(path)) {
            long baseline = EngineDriver.descriptorsOf(path);
            IoRequest request = pending(file);
            if (baseline >= 0) {
                assertEquals(baseline + 1, EngineDriver.descriptorsOf(path), "the engine holds its own descriptor");
            }
            IllegalStateException reason = new IllegalStateException("cancelled");
            assertTrue(driver.engine.cancel(request, reason));
            assertEquals(reason, request.error());
            assertEquals(baseline, EngineDriver.descriptorsOf(path));
        }
    }

    @Test
    void closingTheChannelReleasesTheDuplicateDescriptor() throws Exception {
        try (FileChannel file = FileChannel.open(path)) {
            long baseline = EngineDriver.descriptorsOf(path);
            IoRequest request = pending(file);
            channel.close();
            assertEquals(baseline, EngineDriver.descriptorsOf(path));
            assertTrue(driver.engine.cancel(request, new ClosedChannelException()), "still in its slot for the core");
        }
    }

    @Test
    void closingTheFileEndsThePendingTransmissionWithClosedChannelException() throws Exception {
        FileChannel file = FileChannel.open(path);
        IoRequest request = pending(file);
        long sentBefore = request.fileBytes();
        file.close();
        CRC32 crc = new CRC32();
        driver.await(request, () -> drain(crc));
        assertInstanceOf(ClosedChannelException.class, request.error());
        assertEquals(sentBefore, request.fileBytes(), "nothing is sent from a closed file");
        assertEquals(0, Math.max(0, EngineDriver.descriptorsOf(path)), "no descriptor of the file is left");
    }

    @Test
    void aFileNotOpenForReadingFailsAsTheJdkReportsIt() throws Exception {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.WRITE)) {
            long baseline = EngineDriver.descriptorsOf(path);
            IoRequest request = transmit(file, 0, 10, null, null);
            assertEquals(StartResult.COMPLETED, driver.engine.start(request));
            assertInstanceOf(NonReadableChannelException.class, request.error());
            assertEquals(0, request.bytes());
            assertEquals(baseline, EngineDriver.descriptorsOf(path));
        }
    }

    @Test
    void aResetPeerFailsThePendingTransmissionWithAnIoException() throws Exception {
        try (FileChannel file = FileChannel.open(path)) {
            long baseline = EngineDriver.descriptorsOf(path);
            IoRequest request = pending(file);
            peer.setOption(StandardSocketOptions.SO_LINGER, 0);
            peer.close(); // unread data: the close resets the connection
            driver.await(request, () -> { });
            assertInstanceOf(IOException.class, request.error());
            assertTrue(request.fileBytes() < SIZE);
            assertEquals(baseline, EngineDriver.descriptorsOf(path));
        }
    }
}
