package dev.proactor.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The launch options mixin: its defaults, a command's own ready timeout default, its checks; nothing is run. */
class LaunchOptionsTest {

    @Command(name = "plain")
    static final class Plain {
        @Mixin
        final LaunchOptions launch = new LaunchOptions();
    }

    @Command(name = "quick-ready")
    static final class QuickReady {
        @Mixin
        final LaunchOptions launch = new LaunchOptions(60);
    }

    @Test
    void theDefaults() throws UsageException {
        Plain p = new Plain();
        ParseOnly.fill(p, new String[0]);
        LaunchOptions o = p.launch;
        assertEquals("127.0.0.1", o.host());
        RepoLayout layout = RepoLayout.detect();
        assertEquals(layout.defaultExamplesJar().toAbsolutePath(), o.examplesJar(layout));
        assertEquals(OptionChecks.javaOrThis(null), o.java());
        assertEquals(List.of("-Xms1g", "-Xmx1g"), o.jvmOptions());
        assertEquals("0", o.serverCpus());
        assertEquals("1", o.clientCpus());
        assertTrue(o.pin());
        assertEquals(LaunchOptions.DEFAULT_READY_TIMEOUT, o.readyTimeout());
    }

    @Test
    void everyOptionIsTaken() throws UsageException {
        Plain p = new Plain();
        ParseOnly.fill(p, new String[] {"--host", "127.0.0.2", "--examples-jar", "x.jar", "--java", "/j/bin/java",
            "--jvm-opts", " -Xmx2g  -Dx=1 ", "--server-cpus", "2", "--client-cpus", "3-4", "--no-pin",
            "--ready-timeout", "7"});
        LaunchOptions o = p.launch;
        assertEquals("127.0.0.2", o.host());
        assertEquals(Paths.get("x.jar").toAbsolutePath(), o.examplesJar(RepoLayout.detect()));
        assertEquals("/j/bin/java", o.java());
        assertEquals(List.of("-Xmx2g", "-Dx=1"), o.jvmOptions());
        assertEquals("2", o.serverCpus());
        assertEquals("3-4", o.clientCpus());
        assertFalse(o.pin());
        assertEquals(7, o.readyTimeout());
    }

    @Test
    void aCommandsOwnReadyTimeoutIsItsDefaultAndShowsInItsHelp() throws UsageException {
        QuickReady q = new QuickReady();
        ParseOnly.fill(q, new String[0]);
        assertEquals(60, q.launch.readyTimeout());
        String help = new CommandLine(new QuickReady()).getUsageMessage();
        assertTrue(help.contains("(default: 60)"), help);
        assertTrue(new CommandLine(new Plain()).getUsageMessage().contains("(default: 120)"));
    }

    @Test
    void aReadyTimeoutBelowOneIsAUsageError() throws UsageException {
        Plain p = new Plain();
        ParseOnly.fill(p, new String[] {"--ready-timeout", "0"});
        UsageException e = assertThrows(UsageException.class, p.launch::readyTimeout);
        assertTrue(e.getMessage().contains("--ready-timeout"), e.getMessage());
    }
}
