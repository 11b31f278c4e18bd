package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real OpenSSH {@code scp} against an Apache MINA SSHD server on sshd's NIO2 transport over whatever provider
 * the JVM runs: a 4 MB random file copied up and back down, byte-exact (SHA-256 of the local file, the file the
 * server stored and the file copied back), with public-key authentication. Runs both of scp's protocols:
 * {@code -s} (SFTP, OpenSSH's default since 9.0) and {@code -O} (the legacy SCP protocol, an exec channel running
 * sshd's {@code scp -t}/{@code scp -f}). Skipped, with the reason, when {@code ssh}/{@code scp} are not installed or
 * the installed {@code scp} lacks the protocol's option.
 */
@ExtendWith(ProviderUnderTest.class)
@EnabledIf(value = "openSshClientInstalled", disabledReason = "the OpenSSH client is not installed: no executable"
        + " ssh and scp on PATH")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@Tag("apps")
class OpenSshScpAppTest {

    private static final long SIZE = 4L * 1024 * 1024;
    private static final long PROCESS_GUARD_SECONDS = 60;

    @TempDir
    static Path dir;
    private static Path scp;
    private static String scpUsage;
    private static Path privateKey;
    private static SshTestServer server;

    @BeforeAll
    static void start() throws Exception {
        ProviderUnderTest.check();
        scp = onPath("scp").orElseThrow();
        scpUsage = run(List.of(scp.toString())).output; // no arguments: prints its usage (options) and exits 1
        KeyPair key = newClientKey();
        privateKey = dir.resolve("id_ecdsa");
        try (OutputStream out = Files.newOutputStream(privateKey)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(key, "proactor-test",
                    (OpenSSHKeyEncryptionContext) null, out);
        }
        Files.setPosixFilePermissions(privateKey, PosixFilePermissions.fromString("rw-------")); // ssh insists
        server = SshTestServer.start(dir, key.getPublic());
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** Copies a file up with {@code scp -<option>}, then back down, each byte-exact. */
    @ParameterizedTest(name = "scp -{0}")
    @ValueSource(strings = {"s", "O"})
    void copiesAFileUpAndBackDown(String protocolOption) throws Exception {
        assumeTrue(supportsOption(protocolOption), () -> "the installed " + scp + " has no -" + protocolOption
                + " option; its usage: " + scpUsage);
        Path local = dir.resolve("local-" + protocolOption + ".bin");
        String expected;
        try (OutputStream out = Files.newOutputStream(local)) {
            expected = TestData.write(protocolOption.hashCode(), SIZE, out);
        }
        String remoteName = "copied-" + protocolOption + ".bin";
        String remote = SshTestServer.USER + "@127.0.0.1:" + remoteName;

        scpOk(protocolOption, local.toString(), remote);
        TestData.Digest stored = TestData.digest(server.root().resolve(remoteName));
        assertEquals(SIZE, stored.size(), "bytes the server stored");
        assertEquals(expected, stored.sha256(), "SHA-256 of the file the server stored");

        Path back = dir.resolve("back-" + protocolOption + ".bin");
        scpOk(protocolOption, remote, back.toString());
        TestData.Digest copiedBack = TestData.digest(back);
        assertEquals(SIZE, copiedBack.size(), "bytes copied back");
        assertEquals(expected, copiedBack.sha256(), "SHA-256 of the file copied back");
    }

    private static void scpOk(String protocolOption, String from, String to) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(scp.toString(), "-" + protocolOption, "-B", "-q",
                "-F", "/dev/null", // no user or system ssh_config
                "-i", privateKey.toString(), "-P", String.valueOf(server.port()),
                "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "PreferredAuthentications=publickey",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", // loopback, a fresh host key
                "-o", "ConnectTimeout=30", "-o", "LogLevel=ERROR"));
        cmd.add(from);
        cmd.add(to);
        Result r = run(cmd);
        assertEquals(0, r.exitCode, () -> String.join(" ", cmd) + " failed; its output:\n" + r.output);
    }

    /** Whether {@code ssh} and {@code scp} are executables on PATH (the class's {@link EnabledIf} condition). */
    static boolean openSshClientInstalled() {
        return onPath("ssh").isPresent() && onPath("scp").isPresent();
    }

    private static boolean supportsOption(String option) {
        // OpenSSH's usage lists the single-letter options in brackets, e.g. "usage: scp [-346ABCOpqRrsTv] ..."
        int open = scpUsage.indexOf("[-");
        int close = open < 0 ? -1 : scpUsage.indexOf(']', open);
        return close > open && scpUsage.substring(open + 2, close).contains(option);
    }

    private static KeyPair newClientKey() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Runs {@code cmd} (stdin empty, stdout and stderr to a file) and returns its exit code and output. */
    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "process", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        boolean exited = p.waitFor(PROCESS_GUARD_SECONDS, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(exited, () -> String.join(" ", cmd) + " still running after " + PROCESS_GUARD_SECONDS
                + " s; its output:\n" + output);
        return new Result(p.exitValue(), output);
    }

    private record Result(int exitCode, String output) {
    }
}
