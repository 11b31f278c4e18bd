package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.ConfigurationTable.Suite;
import dev.proactor.spi.EngineProvider;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault-injection soak of the public API, written once and run by every engine module: a concrete subclass
 * names its engine ({@link EngineUnderTest}); {@link ConfigurationTable} gives its runs (one per leader mode).
 *
 * <p>An echo service on the proactor (accept loop; per connection up to two reads pending, one write of data plus
 * empty "marker" writes, scattering and gathering; see {@link SoakConnection}) serves a few hundred client
 * connections (10 000 with {@code -Psoak}) driven by JDK selector threads ({@link SoakClients}), each sending a
 * seeded pseudo-random stream and checking every echoed byte at its offset. Meanwhile faults are injected at
 * random from a fixed seed ({@value SoakSettings#SEED}; {@link SoakFaults}): client resets, half-closes and
 * stalled readers; server-side closes and cancel storms from foreign threads; cancel probes (a quiet peer, so a
 * lost cancel shows); RuntimeExceptions, Errors and StackOverflowErrors thrown by handlers; user threads entering
 * and leaving {@code handleEvents} (0, 1, 50 ms); timers scheduled and cancelled continuously
 * ({@link SoakTimers}).
 *
 * <p>Every operation started and every callback is accounted ({@link OpLedger}). At the end every connection
 * without a fault must get all its bytes back; after {@code close()} every operation started must have completed
 * exactly once and in start order, callbacks of one direction never overlapped, no cancel was lost, the pool kept
 * all its threads and no handler failure escaped into a user thread, failed channels are closed, timers behaved,
 * and descriptors and direct memory are back to their baseline ({@code SoakRun.checks()}). The figures are printed
 * as one {@code SOAK ...} line per run (test output, and {@code target/soak-summary.txt} of the engine module);
 * the failed checks, with their first occurrences, are the failure message. Waits are bounded only as hang guards
 * (the ramp-up and the drain wait as long as they progress); nothing asserts on time or speed.
 */
@Tag("soak")
public abstract class AbstractSoakTest {

    /** Row {@code SOAKS} of {@link ConfigurationTable}, on the engine the test class names. */
    static Stream<SoakSettings> configurations(TestInfo test) {
        return ConfigurationTable.soaks(Suite.SOAKS, test);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("configurations")
    void soak(SoakSettings settings) throws Exception {
        EngineProvider p = ConformanceMatrix.provider(settings.config().engine());
        assumeTrue(p.isAvailable(), () -> "engine " + settings.config().engine() + " unavailable: "
                + p.unavailabilityCause());
        SoakRun run = new SoakRun(settings);
        List<String> failed = run.run();
        if (!failed.isEmpty()) {
            fail("soak checks failed on " + settings + ":\n  " + String.join("\n  ", failed) + "\n" + run.summary());
        }
    }
}
