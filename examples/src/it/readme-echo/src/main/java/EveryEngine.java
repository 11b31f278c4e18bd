import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The consumer's check: the README's service ({@link EchoMain#listen}, {@link Echo}) on every engine, each selected
 * by the {@code proactor.engine} system property as a user selects it, with {@code proactor.strict=true} so that an
 * engine that cannot run fails instead of falling back. A native engine may be skipped, with its reason, only where
 * this build made no native library (as the project's own tests); where it made one, epoll (which needs only the
 * library and Linux) must run, io_uring and linux-aio unless the kernel refuses them.
 */
public final class EveryEngine {

    private static final String[] ENGINES = {"nio", "epoll", "linux-aio", "io_uring"};

    public static void main(String[] args) throws Exception {
        boolean libraryBuilt = libraryBuilt(System.getProperty("proactor.it.nativeLibrary", ""));
        System.setProperty("proactor.strict", "true");
        System.setProperty("proactor.threads", "2");
        for (String engine : ENGINES) {
            System.setProperty("proactor.engine", engine);
            Demultiplexor demux;
            try {
                demux = Demultiplexor.open().start();
            } catch (IllegalStateException unavailable) {
                if (engine.equals("nio") || (engine.equals("epoll") && libraryBuilt)) {
                    throw unavailable;
                }
                System.out.println("readme-echo: skipped " + unavailable.getMessage());
                continue;
            }
            try {
                InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
                AsynchChannel server = EchoMain.listen(demux, any);
                check(engine.equals(demux.getEngineName()), "runs on " + demux.getEngineName() + ", not " + engine);
                int echoed = roundTrip((InetSocketAddress) server.getLocalAddress(), "hello over " + engine);
                System.out.println("readme-echo: " + engine + " echoed " + echoed + " bytes");
            } finally {
                demux.close();
            }
        }
    }

    /** Whether the outer build made a native library (its output directory holds one). */
    static boolean libraryBuilt(String directory) throws IOException {
        Path dir = Path.of(directory.isEmpty() || directory.startsWith("${") ? "/nonexistent" : directory);
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".so"));
        }
    }

    /** Sends {@code text} on a fresh connection and checks that exactly it comes back; returns its length. */
    static int roundTrip(InetSocketAddress server, String text) throws IOException {
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

    static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
