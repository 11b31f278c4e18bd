package consumer.jpms;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * An echo on every engine, from a named module on the module path that requires {@code dev.proactor.core} only: the
 * engine modules ({@code dev.proactor.nio}, {@code dev.proactor.jni}) are resolved because the core {@code uses}
 * their service, and the native library is found inside its module. Engines are chosen with the configuration
 * builder, strict. A native engine may be skipped, with its reason, only where this build made no native library;
 * where it made one, epoll must run, io_uring and linux-aio unless the kernel refuses them.
 */
public final class Main {

    private static final String[] ENGINES = {"nio", "epoll", "linux-aio", "io_uring"};

    public static void main(String[] args) throws Exception {
        check(Demultiplexor.class.getModule().isNamed() && Main.class.getModule().isNamed(),
                "not on the module path: " + Demultiplexor.class.getModule());
        boolean libraryBuilt = libraryBuilt(System.getProperty("proactor.it.nativeLibrary", ""));
        for (String engine : ENGINES) {
            ProactorConfig config = ProactorConfig.builder().engine(engine).strict(true).threads(2).build();
            Demultiplexor demux;
            try {
                demux = Demultiplexor.open(config).start();
            } catch (IllegalStateException unavailable) {
                if (engine.equals("nio") || (engine.equals("epoll") && libraryBuilt)) {
                    throw unavailable;
                }
                System.out.println("jpms: skipped " + unavailable.getMessage());
                continue;
            }
            try {
                check(engine.equals(demux.getEngineName()), "runs on " + demux.getEngineName() + ", not " + engine);
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
                int echoed = roundTrip((InetSocketAddress) server.getLocalAddress(), "hello over " + engine);
                System.out.println("jpms: " + engine + " (module " + Demultiplexor.class.getModule().getName()
                        + ") echoed " + echoed + " bytes");
            } finally {
                demux.close();
            }
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

    /** Whether the outer build made a native library (its output directory holds one). */
    private static boolean libraryBuilt(String directory) throws IOException {
        Path dir = Path.of(directory.isEmpty() || directory.startsWith("${") ? "/nonexistent" : directory);
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".so"));
        }
    }

    /** Sends {@code text} on a fresh connection and checks that exactly it comes back; returns its length. */
    private static int roundTrip(InetSocketAddress server, String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket()) {
            socket.connect(server, 10_000);
            socket.setSoTimeout(10_000); // a hang guard: the echo is immediate
            socket.getOutputStream().write(sent);
            byte[] received = new byte[sent.length];
            new DataInputStream(socket.getInputStream()).readFully(received);
            check(Arrays.equals(sent, received), "echoed '" + new String(received, StandardCharsets.UTF_8) + "'");
        }
        return sent.length;
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
