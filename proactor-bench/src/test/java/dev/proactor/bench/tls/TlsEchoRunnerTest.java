package dev.proactor.bench.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of the interleaved runs; nothing is run. */
class TlsEchoRunnerTest {

    @Test
    void oddRunsKeepTheStartOrderAndEvenRunsReverseIt() {
        List<String> servers = List.of("a", "b", "c", "d");
        assertEquals(List.of("a", "b", "c", "d"), TlsEchoRunner.runOrder(servers, 1));
        assertEquals(List.of("d", "c", "b", "a"), TlsEchoRunner.runOrder(servers, 2));
        assertEquals(List.of("a", "b", "c", "d"), TlsEchoRunner.runOrder(servers, 3));
        assertEquals(List.of("a", "b", "c", "d"), servers, "the list of started servers is left as it was");
    }
}
