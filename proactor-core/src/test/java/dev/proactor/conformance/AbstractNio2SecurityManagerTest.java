package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.nio2.ProactorAsynchronousChannelProvider;
import dev.proactor.spi.EngineProvider;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's permission checks of the asynchronous socket channels, under a {@code SecurityManager}: {@code accept}
 * checks the peer in the context of the accept's caller (a denied peer fails the accept with a
 * {@link SecurityException} and is closed), {@code connect} throws one at once, {@code getLocalAddress} hides an
 * address the caller may not resolve behind the loopback address, and everything a program may do needs no more
 * of it than on the JDK's provider (the provider does its own work privileged). A SecurityManager is process-wide,
 * so each target runs {@link Nio2SecurityScenarios} in a JVM of its own (this JVM's Java, the test class path)
 * with a policy that grants the scenario's code base only a few socket permissions and everything else on the
 * class path {@code AllPermission}, as a deployment grants a trusted library. The JDK's provider is the reference.
 *
 * <p>A concrete subclass names its engines ({@link EngineUnderTest}); a target is {@value #JDK} or an engine name.
 * Skipped on a Java that cannot enable a SecurityManager (24 and later). Waits are hang guards only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("forked")
public abstract class AbstractNio2SecurityManagerTest {

    /** Row {@code NIO2_SECURITY_MANAGER} of {@link ConfigurationTable}, on the engine the test class names. */
    static List<String> targets(TestInfo test) {
        return ConfigurationTable.engineNames(Suite.NIO2_SECURITY_MANAGER, test);
    }

    /** The target naming the JDK's own provider. */
    public static final String JDK = "jdk";

    private static final long LIMIT_SECONDS = 90;

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("targets")
    void theJdksPermissionChecksHold(String target, @TempDir Path dir) throws Exception {
        assumeTrue(Runtime.version().feature() < 24, "a SecurityManager cannot be enabled on Java 24 and later");
        if (!target.equals(JDK)) {
            EngineProvider engine = ConformanceMatrix.provider(target);
            assumeTrue(engine.isAvailable(),
                    () -> "engine " + target + " unavailable: " + engine.unavailabilityCause());
        }
        Path policy = dir.resolve("scenario.policy");
        Files.writeString(policy, policy(), StandardCharsets.UTF_8);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.security.manager", "-Djava.security.policy=" + policy.toUri()));
        if (!target.equals(JDK)) {
            cmd.add("-Djava.nio.channels.spi.AsynchronousChannelProvider="
                    + ProactorAsynchronousChannelProvider.class.getName());
            cmd.add("-Dproactor.engine=" + target);
            cmd.add("-Dproactor.strict=true");
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Nio2SecurityScenarios.class.getName()));
        Path log = dir.resolve("scenarios.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("hang guard: the scenarios did not end within " + LIMIT_SECONDS + " s:\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> "the scenario JVM failed:\n" + out);
        assertTrue(out.contains("provider " + (target.equals(JDK) ? "sun.nio.ch."
                : ProactorAsynchronousChannelProvider.class.getName())), () -> "not the expected provider:\n" + out);
        for (String scenario : Nio2SecurityScenarios.SCENARIOS) {
            assertTrue(out.contains(Nio2SecurityScenarios.LINE + " " + scenario + " OK"),
                    () -> scenario + " did not pass on " + target + ":\n" + out);
        }
    }

    /**
     * The policy: {@code AllPermission} for every class path entry but the scenario's code base, which may only
     * connect to 127.0.0.1 and accept from 127.0.0.2 (and listen on ephemeral ports, from the JDK's default policy).
     */
    private static String policy() throws URISyntaxException {
        Path scenario = Path.of(
                Nio2SecurityScenarios.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        StringBuilder b = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath();
            if (!p.equals(scenario.toAbsolutePath())) {
                b.append("grant codeBase \"").append(codeBase(p)).append("\" {\n")
                        .append("    permission java.security.AllPermission;\n};\n");
            }
        }
        b.append("grant codeBase \"").append(codeBase(scenario)).append("\" {\n")
                .append("    permission java.net.SocketPermission \"127.0.0.1:1024-\", \"connect,resolve\";\n")
                .append("    permission java.net.SocketPermission \"127.0.0.2:1024-\", \"accept,resolve\";\n")
                .append("};\n");
        return b.toString();
    }

    /** A policy code base: a jar's URL, or a directory's with {@code -} (every class under it). */
    private static String codeBase(Path p) {
        String url = p.toUri().toString();
        return Files.isDirectory(p) ? (url.endsWith("/") ? url : url + "/") + "-" : url;
    }
}
