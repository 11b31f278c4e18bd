package consumer.selection;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Engine selection by system property as an aarch64 machine sees it: run with {@code -Dos.arch=aarch64}, for which
 * the jar holds no native library. Each engine asked for by {@code proactor.engine} runs on {@code nio}, a native one
 * after one WARN line naming the missing library; {@code proactor.strict=true} fails with that cause instead; an
 * unknown name fails listing the engines found; each of nio's wait strategies is selected by
 * {@code proactor.waitStrategy} (poll needs {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED}).
 */
public final class Main {

    private static final String[] NATIVE_ENGINES = {"epoll", "linux-aio", "io_uring"};
    private static final String[] NIO_WAIT_STRATEGIES = {"epoll", "poll", "busy-poll"};

    public static void main(String[] args) throws Exception {
        check("aarch64".equals(System.getProperty("os.arch")), "run with -Dos.arch=aarch64");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new Tee(System.err, log), true, StandardCharsets.UTF_8)); // slf4j-simple's
        System.setProperty("proactor.threads", "1");
        String missing = "META-INF/native/libproactor-jni-aarch64-";
        for (String engine : NATIVE_ENGINES) {
            System.setProperty("proactor.engine", engine);
            echoOn("nio", "epoll");
            String warn = "engine '" + engine + "' is unavailable, falling back to 'nio': "
                    + "java.lang.UnsatisfiedLinkError: " + missing;
            check(log.toString(StandardCharsets.UTF_8).contains(warn), "no line '" + warn + "' in:\n" + log);
            System.out.println("engine-selection: " + engine + " fell back to nio, with the WARN line");
        }
        System.setProperty("proactor.strict", "true");
        try {
            Demultiplexor.open().close();
            throw new AssertionError("strict io_uring opened on aarch64");
        } catch (IllegalStateException expected) {
            check(expected.getMessage().startsWith("engine 'io_uring' is unavailable and proactor.strict=true: ")
                    && expected.getMessage().contains(missing), expected.getMessage());
            System.out.println("engine-selection: strict: " + expected.getMessage());
        }
        System.setProperty("proactor.engine", "kqueue");
        try {
            Demultiplexor.open().close();
            throw new AssertionError("an unknown engine opened");
        } catch (IllegalArgumentException expected) {
            for (String found : new String[] {"nio", "epoll", "linux-aio", "io_uring"}) {
                check(expected.getMessage().contains(found), found + " not among the engines found: " + expected);
            }
            System.out.println("engine-selection: unknown: " + expected.getMessage());
        }
        System.setProperty("proactor.engine", "nio");
        for (String waitStrategy : NIO_WAIT_STRATEGIES) {
            System.setProperty("proactor.waitStrategy", waitStrategy);
            echoOn("nio", waitStrategy);
            System.out.println("engine-selection: nio with wait strategy " + waitStrategy);
        }
    }

    /** Opens a demultiplexor from the system properties, checks what it runs on and echoes through it. */
    private static void echoOn(String engine, String waitStrategy) throws IOException {
        try (Demultiplexor demux = Demultiplexor.open().start()) {
            check(engine.equals(demux.getEngineName()) && waitStrategy.equals(demux.getWaitStrategyName()),
                    "runs on " + demux.getEngineName() + "/" + demux.getWaitStrategyName());
            AsynchChannel server = AsynchChannel.openServer(demux, new AsynchHandler() {
                @Override
                public void onAcceptCompleted(OpAccept op) throws IOException {
                    if (op.isSuccess()) {
                        new Echo(op);
                    }
                    if (op.getChannel().isOpen()) {
                        op.getChannel().accept();
                    }
                }
            }, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.accept();
            roundTrip((InetSocketAddress) server.getLocalAddress(), "hello over " + engine + "/" + waitStrategy);
        }
    }

    /** The README's echo handler. */
    private static final class Echo implements AsynchHandler {
        private final ByteBuffer buf = ByteBuffer.allocateDirect(16 * 1024);
        private final AsynchChannel ch;

        Echo(OpAccept accepted) throws IOException {
            ch = accepted.adopt(this);
            ch.read(buf);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                ch.close();
                return;
            }
            buf.flip();
            ch.write(buf);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess()) {
                ch.close();
                return;
            }
            buf.clear();
            ch.read(buf);
        }
    }

    /** Sends {@code text} on a fresh connection and checks that exactly it comes back. */
    private static void roundTrip(InetSocketAddress server, String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket()) {
            socket.connect(server, 10_000);
            socket.setSoTimeout(10_000); // a hang guard: the echo is immediate
            socket.getOutputStream().write(sent);
            byte[] received = new byte[sent.length];
            new DataInputStream(socket.getInputStream()).readFully(received);
            check(Arrays.equals(sent, received), "echoed '" + new String(received, StandardCharsets.UTF_8) + "'");
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** Writes to both streams: the log stays visible and is kept for the checks. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public synchronized void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }
}
