package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.io.nio2.Nio2ServiceFactory;
import org.apache.sshd.common.io.nio2.Nio2Session;
import org.apache.sshd.common.session.helpers.AbstractSession;
import org.apache.sshd.scp.server.ScpCommandFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.forward.AcceptAllForwardingFilter;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An Apache MINA SSHD server on loopback for the SSH application tests: SFTP subsystem and SCP command, files
 * under one directory, TCP/IP forwarding, a password user and optionally one accepted public key. It runs on
 * sshd's default NIO2 transport ({@code AsynchronousServerSocketChannel}/{@code AsynchronousSocketChannel} in an
 * {@code AsynchronousChannelGroup} on sshd's executor), which {@link #start} asserts: the test class path holds
 * neither sshd-mina nor sshd-netty.
 */
final class SshTestServer implements AutoCloseable {

    static final String USER = "proactor";
    static final String PASSWORD = "secret-on-loopback";
    /** How long connecting or authenticating may take before the test gives up (a hang guard only). */
    static final Duration HANG_GUARD = Duration.ofSeconds(30);

    private final SshServer sshd;
    private final Path root;

    private SshTestServer(SshServer sshd, Path root) {
        this.sshd = sshd;
        this.root = root;
    }

    /**
     * Starts a server on 127.0.0.1 (a free port) whose files live in {@code dir}/root; {@code authorizedKey}, if
     * not null, is accepted for {@link #USER} besides the password.
     */
    static SshTestServer start(Path dir, PublicKey authorizedKey) throws IOException {
        Path root = Files.createDirectories(dir.resolve("root"));
        SshServer sshd = SshServer.setUpDefaultServer();
        sshd.setHost("127.0.0.1");
        sshd.setPort(0);
        sshd.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(dir.resolve("hostkey.ser")));
        sshd.setPasswordAuthenticator((user, password, session) -> USER.equals(user) && PASSWORD.equals(password));
        if (authorizedKey != null) {
            sshd.setPublickeyAuthenticator((user, key, session) ->
                    USER.equals(user) && KeyUtils.compareKeys(authorizedKey, key));
        }
        sshd.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        sshd.setCommandFactory(new ScpCommandFactory());
        sshd.setFileSystemFactory(new VirtualFileSystemFactory(root));
        sshd.setForwardingFilter(AcceptAllForwardingFilter.INSTANCE); // loopback only: tunnels to our own servers
        sshd.start();
        SshTestServer server = new SshTestServer(sshd, root);
        try {
            assertInstanceOf(Nio2ServiceFactory.class, sshd.getIoServiceFactory(),
                    "sshd must run its NIO2 transport (no sshd-mina/sshd-netty on the class path)");
        } catch (AssertionError e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * A started MINA client on its NIO2 transport (asserted) that trusts exactly this server's host key.
     */
    SshClient newClient() throws IOException {
        List<PublicKey> hostKeys = new ArrayList<>();
        try {
            for (KeyPair kp : sshd.getKeyPairProvider().loadKeys(null)) {
                hostKeys.add(kp.getPublic());
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot load the server's host keys", e);
        }
        SshClient client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier((session, address, key) ->
                hostKeys.stream().anyMatch(k -> KeyUtils.compareKeys(k, key)));
        client.start();
        assertInstanceOf(Nio2ServiceFactory.class, client.getIoServiceFactory(), "client transport");
        return client;
    }

    /**
     * A session of {@code client} to this server, authenticated with the password; asserts both ends' I/O
     * sessions are NIO2 ones.
     */
    ClientSession connect(SshClient client) throws IOException {
        ClientSession session = client.connect(USER, "127.0.0.1", port()).verify(HANG_GUARD).getSession();
        try {
            session.addPasswordIdentity(PASSWORD);
            session.auth().verify(HANG_GUARD);
            assertInstanceOf(Nio2Session.class, session.getIoSession(), "client I/O session");
            assertFalse(sshd.getActiveSessions().isEmpty(), "server sessions");
            for (AbstractSession s : sshd.getActiveSessions()) {
                assertInstanceOf(Nio2Session.class, s.getIoSession(), "server I/O session");
            }
            return session;
        } catch (IOException | RuntimeException | Error e) {
            session.close(true);
            throw e;
        }
    }

    /** The port the server listens on. */
    int port() {
        return sshd.getPort();
    }

    /** The directory the server's file system is rooted at (the user's home). */
    Path root() {
        return root;
    }

    /** The server itself (e.g. its active sessions). */
    SshServer sshd() {
        return sshd;
    }

    @Override
    public void close() throws IOException {
        sshd.stop(true);
    }
}
