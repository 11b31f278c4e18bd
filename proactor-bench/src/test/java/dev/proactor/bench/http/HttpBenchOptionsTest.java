package dev.proactor.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proactor.bench.harness.UsageException;
import dev.proactor.bench.harness.RepoLayout;
import org.junit.jupiter.api.Test;

/** The warm-up of {@code http-bench}: one wrk run by default, or split into waves of new connections. */
class HttpBenchOptionsTest {

    private static HttpBenchOptions parse(String... argv) throws UsageException {
        return HttpBenchOptions.parse(argv, RepoLayout.detect());
    }

    @Test
    void theWarmUpIsOneWrkRunByDefault() throws UsageException {
        HttpBenchOptions o = parse("--warmup", "20");
        assertEquals(1, o.warmupWaves());
        assertEquals(20, o.waveSeconds());
        assertEquals(20, o.warmupSeconds());
    }

    @Test
    void wavesShareTheWarmUpAndLastAtLeastOneSecondEach() throws UsageException {
        HttpBenchOptions o = parse("--warmup", "20", "--warmup-waves", "4");
        assertEquals(5, o.waveSeconds());
        assertEquals(20, o.warmupSeconds());
        HttpBenchOptions tiny = parse("--warmup", "2", "--warmup-waves", "4");
        assertEquals(1, tiny.waveSeconds());
        assertEquals(4, tiny.warmupSeconds());
        assertEquals(0, parse("--warmup", "0", "--warmup-waves", "3").warmupSeconds());
    }

    @Test
    void atLeastOneWaveIsRequired() {
        assertThrows(UsageException.class, () -> parse("--warmup-waves", "0"));
    }
}
