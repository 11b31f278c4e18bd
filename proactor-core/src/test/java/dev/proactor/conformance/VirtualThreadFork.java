package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs file-channel tests again in a forked JVM of a JDK 21+ with virtual callers: the default build runs on JDK 17
 * with platform threads, and this makes the same tests run on virtual threads
 * ({@code -Dproactor.test.callerThreads=virtual}, see {@link Callers}) with a carrier pool of one
 * ({@code -Djdk.virtualThreadScheduler.parallelism=1}, {@code maxPoolSize=1}, so a pinned carrier cannot be
 * compensated for), using the test class path of this JVM. The JDK is {@value #JDK_PROPERTY} (a Java home), else
 * the newest JDK 21+ under {@code /usr/lib/jvm}; without one the calling test is skipped with that reason.
 */
public final class VirtualThreadFork {

    /** System property naming the Java home of a JDK 21+ for the forked run. */
    public static final String JDK_PROPERTY = "proactor.test.virtualThreadJdk";

    private static final long LIMIT_SECONDS = 300;
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private VirtualThreadFork() {
    }

    /**
     * Runs {@code classes} in the fork and fails if any test failed, none succeeded, or one of
     * {@code mustSucceed} (test method names) did not succeed there.
     */
    public static void run(List<Class<?>> classes, String... mustSucceed) throws IOException, InterruptedException {
        Optional<Path> home = findJdk();
        assumeTrue(home.isPresent(), () -> "no JDK 21+ for the virtual-thread run: set -D" + JDK_PROPERTY
                + "=JAVA_HOME or install one under /usr/lib/jvm");
        Path java = home.get().resolve("bin").resolve("java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(),
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-D" + Callers.PROPERTY + "=virtual",
                "-Djdk.virtualThreadScheduler.parallelism=1", "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                "-cp", System.getProperty("java.class.path"), ForkedJUnit.class.getName()));
        for (Class<?> c : classes) {
            cmd.add(c.getName());
        }
        Path log = Files.createTempFile("proactor-virtual-thread-run", ".log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                String threads = threadDump(home.get(), p.pid());
                p.destroyForcibly().waitFor();
                throw new AssertionError("hang guard: the forked run did not end within " + LIMIT_SECONDS + " s:\n"
                        + Files.readString(log, StandardCharsets.UTF_8) + "\nits threads, virtual ones included:\n"
                        + threads);
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            String result = out.lines().filter(l -> l.startsWith(ForkedJUnit.RESULT)).findFirst()
                    .orElseThrow(() -> new AssertionError("the forked run ended without a result:\n" + out));
            System.out.println("virtual-thread run on " + home.get() + ": " + result);
            out.lines().filter(l -> l.startsWith(ForkedJUnit.TEST) && !l.contains(" SUCCESSFUL "))
                    .forEach(System.out::println);
            assertEquals(0, p.exitValue(), () -> "tests failed on virtual threads:\n" + out);
            assertTrue(count(result, "succeeded") > 0, () -> "no test succeeded on virtual threads:\n" + out);
            assertEquals(0, count(result, "failed"), () -> out);
            for (String name : mustSucceed) {
                assertTrue(out.lines().anyMatch(l -> l.startsWith(ForkedJUnit.TEST + " SUCCESSFUL ")
                        && l.contains(name)), () -> name + " did not succeed on virtual threads:\n" + out);
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /**
     * The threads of the hung fork, virtual ones included ({@code jcmd Thread.dump_to_file}), for the failure message:
     * a hang seen once must say where it waited. Never throws: a dump that cannot be taken says why instead.
     */
    private static String threadDump(Path javaHome, long pid) {
        try {
            Path dump = Files.createTempFile("proactor-virtual-thread-hang", ".txt");
            try {
                Files.delete(dump); // jcmd refuses to overwrite
                Process jcmd = new ProcessBuilder(javaHome.resolve("bin").resolve("jcmd").toString(),
                        Long.toString(pid), "Thread.dump_to_file", "-format=text", dump.toString())
                        .redirectErrorStream(true).start();
                String said = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!jcmd.waitFor(30, TimeUnit.SECONDS) || !Files.exists(dump)) {
                    return "(no thread dump: " + said.strip() + ")";
                }
                return Files.readString(dump, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(dump);
            }
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    private static long count(String result, String key) {
        Matcher m = Pattern.compile(key + "=(\\d+)").matcher(result);
        assertTrue(m.find(), result);
        return Long.parseLong(m.group(1));
    }

    /** The Java home of a JDK 21+: the property, else the newest under /usr/lib/jvm. */
    static Optional<Path> findJdk() throws IOException {
        String configured = System.getProperty(JDK_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin").resolve("java")))
                    .filter(h -> feature(h) >= 21)
                    .max(Comparator.comparingInt(VirtualThreadFork::feature));
        }
    }

    /** The feature version in a Java home's {@code release} file, or 0. */
    private static int feature(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
