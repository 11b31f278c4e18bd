package dev.proactor.jni.epoll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proactor.jni.NativeTestSupport;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stream read started after the read that drained the socket, with no poll in between (what a NIO.2 program
 * does: its next read starts inside the callback of the last one), waits for the next event instead of making a
 * system call that would find nothing; it must still complete with every byte, also bytes already there.
 */
class EpollDrainedReadTest {

    private EngineDriver driver;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;

    @BeforeEach
    void setUp() throws Exception {
        NativeTestSupport.assumeEpoll();
        driver = new EngineDriver();
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
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

    private IoRequest read(ByteBuffer into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffer(into);
    }

    private void send(String text) throws Exception {
        peer.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String text(ByteBuffer buffer) {
        return StandardCharsets.US_ASCII.decode(buffer.flip()).toString();
    }

    @Test
    void aReadAfterADrainingReadWaitsForTheEventAndStillGetsBytesAlreadyThere() throws Exception {
        ByteBuffer first = ByteBuffer.allocateDirect(64);
        IoRequest firstRead = read(first);
        assertEquals(StartResult.PENDING, driver.engine.start(firstRead), "nothing was sent yet");
        send("first");
        driver.await(firstRead, () -> { });
        assertNull(firstRead.error());
        assertEquals("first", text(first)); // fewer bytes than asked: the socket is drained

        send("second"); // in the socket before the next read starts; no poll has run since the drain
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(second);
        assertEquals(StartResult.PENDING, driver.engine.start(secondRead),
                "a read right after a drain waits for the event instead of trying the socket");
        driver.await(secondRead, () -> { });
        assertNull(secondRead.error());
        assertEquals("second", text(second));
    }

    @Test
    void aReadAfterAPollTriesTheSocketAgain() throws Exception {
        send("one");
        ByteBuffer first = ByteBuffer.allocateDirect(64);
        IoRequest firstRead = read(first);
        assertEquals(StartResult.COMPLETED, driver.engine.start(firstRead), "the bytes were there");
        assertEquals("one", text(first));

        send("two");
        driver.engine.waitStrategy().waitFor(0); // a poll since the drain: the event of "two" was seen
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(second);
        assertEquals(StartResult.COMPLETED, driver.engine.start(secondRead), "the socket is tried at start");
        assertEquals("two", text(second));
    }

    @Test
    void anEndOfStreamWhoseEventCameBeforeTheDrainingReadIsStillSeen() throws Exception {
        send("last");
        peer.shutdownOutput();
        driver.engine.waitStrategy().waitFor(0); // one event for both the bytes and the end of stream, consumed
        ByteBuffer first = ByteBuffer.allocateDirect(64);
        IoRequest firstRead = read(first);
        assertEquals(StartResult.COMPLETED, driver.engine.start(firstRead));
        assertEquals("last", text(first)); // fewer bytes than asked, and no further event will come

        IoRequest endRead = read(ByteBuffer.allocateDirect(64));
        driver.run(endRead, () -> { });
        assertNull(endRead.error());
        assertEquals(-1, endRead.bytes(), "the end of stream");
    }

    @Test
    void aFullReadDoesNotMarkTheSocketDrained() throws Exception {
        send("abcdefgh");
        ByteBuffer exact = ByteBuffer.allocateDirect(4);
        IoRequest firstRead = read(exact);
        assertEquals(StartResult.COMPLETED, driver.engine.start(firstRead));
        assertEquals("abcd", text(exact));

        ByteBuffer rest = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(rest);
        assertEquals(StartResult.COMPLETED, driver.engine.start(secondRead), "more may be there: tried at once");
        assertEquals("efgh", text(rest));
    }
}
