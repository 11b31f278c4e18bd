package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import dev.proactor.toolkit.Service;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the toolkit, timeout and statistics conformance tests share: hang guards, an echo service and blocking
 * clients.
 */
public final class ToolkitTesting {

    static final long GUARD_SECONDS = 60;

    private ToolkitTesting() {
    }

    static void assumeAvailable(ProactorConfig config) {
        EngineProvider p = ConformanceMatrix.provider(config.engine());
        assumeTrue(p.isAvailable(), () -> "engine " + config.engine() + " unavailable: " + p.unavailabilityCause());
    }

    static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(GUARD_SECONDS, TimeUnit.SECONDS), "hang guard: " + what + " never happened");
    }

    /** Waits until {@code condition} holds (a hang guard, never a timing assertion). */
    static void eventually(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("hang guard: " + what + " never happened");
            }
            Thread.sleep(5);
        }
    }

    static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** A blocking client with a read timeout as hang guard. */
    static Socket client(InetSocketAddress server) throws IOException {
        Socket s = new Socket(server.getAddress(), server.getPort());
        s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(GUARD_SECONDS));
        return s;
    }

    /** Sends {@code text} and reads the echo back. */
    static String roundTrip(Socket s, String text) throws IOException {
        byte[] out = text.getBytes();
        s.getOutputStream().write(out);
        byte[] in = s.getInputStream().readNBytes(out.length);
        return new String(in);
    }

    /** Reads one byte, -1 at end of stream or reset. */
    static int readByte(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        try {
            return in.read();
        } catch (java.net.SocketException reset) {
            return -1;
        }
    }

    /** Echoes until end of stream, then closes; optionally greets with one byte when started. */
    static class EchoService implements Service {
        private final ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        private final boolean greet;
        AsynchChannel channel;

        EchoService(boolean greet) {
            this.greet = greet;
        }

        @Override
        public void start(AsynchChannel ch) {
            channel = ch;
            if (greet) {
                ch.write(ByteBuffer.wrap(new byte[] {'H'}), "greeting");
            } else {
                ch.read(buf);
            }
        }

        @Override
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                channel.close();
                return;
            }
            buf.flip();
            channel.write(buf);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess()) {
                channel.close();
                return;
            }
            buf.clear();
            channel.read(buf);
        }
    }
}
