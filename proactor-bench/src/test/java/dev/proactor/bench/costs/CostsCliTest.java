package dev.proactor.bench.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.bench.harness.RepoLayout;
import dev.proactor.bench.harness.UsageException;
import dev.proactor.bench.matrix.Row;
import dev.proactor.bench.matrix.ServerDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code costs} command line: help, defaults, wrong values; nothing is run. */
class CostsCliTest {
    private static CostsOptions parse(String... argv) throws UsageException {
        return CostsCli.parse(argv, RepoLayout.detect());
    }

    @Test
    void helpListsEveryOptionAndTheServers() {
        String help = CostsCli.commandLine().getUsageMessage();
        for (String option : List.of("--rounds", "--sessions", "--servers", "--rate", "--warmup", "--window", "--out",
                "--server-cpus", "--client-cpus", "--no-pin", "--perf", "--dry-run", "--jvm-opts", "--reconnect")) {
            assertTrue(help.contains(option), option + " missing from:\n" + help);
        }
        assertTrue(help.contains("Servers: ") && help.contains("netty-io_uring"), help);
    }

    @Test
    void theDefaultsAreTheIssuesTable() throws UsageException {
        CostsOptions o = parse();
        assertEquals(5, o.rounds());
        assertEquals(List.of(1, 100, 1000, 10000), o.rows().stream().map(Row::sessions).toList());
        for (Row r : o.rows()) {
            assertEquals(1, r.threads());
            assertEquals(1024, r.block());
            assertTrue(r.pingPong());
        }
        assertEquals(CostsCli.DEFAULT_SERVERS, o.servers().stream().map(ServerDefinition::name).toList());
        assertEquals(0, o.rate(), "auto");
        assertEquals("0", o.serverCpus());
        assertEquals("1", o.clientCpus());
        assertTrue(o.pin());
        assertEquals(o.window() + CostsOptions.MARGIN_SECONDS, o.loadgenSeconds());
        assertTrue(o.out().toString().contains("proactor-bench/raw/costs-"), o.out().toString());
        assertEquals(1, o.asMatrixOptions().clientThreads());
        assertEquals(o.loadgenSeconds(), o.asMatrixOptions().seconds());
    }

    @Test
    void theServersKeepTheGivenOrderAndTheRateMayBeGiven() throws UsageException {
        CostsOptions o = parse("--servers", "c-epoll,netty-epoll", "--rate", "12000", "--sessions", "100",
                "--rounds", "1");
        assertEquals(List.of("c-epoll", "netty-epoll"), o.servers().stream().map(ServerDefinition::name).toList());
        assertEquals(12000, o.rate());
        assertEquals(1, o.rows().size());
        assertEquals(0, parse("--rate", "AUTO").rate());
    }

    @Test
    void reconnectGoesToTheLoadGeneratorInBothModes() throws UsageException {
        CostsOptions plain = parse();
        assertEquals(List.of(), plain.loadgenExtras(0), "saturation: nothing beyond the matrix's command");
        assertEquals(List.of("--rate", "500"), plain.loadgenExtras(500));
        CostsOptions o = parse("--reconnect");
        assertTrue(o.reconnect());
        assertEquals(List.of("--reconnect"), o.loadgenExtras(0));
        assertEquals(List.of("--rate", "500", "--reconnect"), o.loadgenExtras(500));
    }

    @Test
    void aFullDefaultRunStaysUnderThirtyFiveMinutes() throws UsageException {
        CostsOptions o = parse();
        double seconds = CostsRunner.estimatedSeconds(o, o.servers().size());
        assertTrue(seconds < 35 * 60, "estimated " + seconds + " s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--rounds 0", "--rate 0", "--rate -5", "--rate fast", "--sessions 0", "--sessions x",
        "--servers no-such-server", "--servers c-epoll,c-epoll", "--window 0", "--warmup -1", "--ready-timeout 0",
        "--bogus"})
    void wrongValuesAreRejected(String line) {
        assertThrows(UsageException.class, () -> parse(line.split(" ")), line);
    }
}
