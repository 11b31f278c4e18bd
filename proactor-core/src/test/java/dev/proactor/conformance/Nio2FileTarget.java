package dev.proactor.conformance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import java.io.IOException;

/**
 * The file channels a contract test runs against: the JDK's ({@code FileChannel.open},
 * {@code AsynchronousFileChannel.open}; the reference: a contract test that fails on them reads the contract wrong)
 * or ours ({@link dev.proactor.nio2.ProactorFiles}) on one engine's file engine ({@link ConfigurationTable} lists
 * them).
 *
 * @param name   shown in the test name
 * @param config our demultiplexor's configuration; null for the JDK's channels
 */
public record Nio2FileTarget(String name, ProactorConfig config) {

    /** The JDK's own file channels. */
    public static Nio2FileTarget jdk() {
        return new Nio2FileTarget("jdk", null);
    }

    /** Whether this is the JDK's implementation. */
    public boolean isJdk() {
        return config == null;
    }

    /**
     * The channels of one test (ours: on a started demultiplexor of its own), or skips the test if the engine is
     * unavailable here.
     */
    Nio2Files open() throws IOException {
        if (config == null) {
            return new Nio2Files(null);
        }
        EngineProvider engine = ConformanceMatrix.provider(config.engine());
        assumeTrue(engine.isAvailable(),
                () -> "engine " + config.engine() + " unavailable: " + engine.unavailabilityCause());
        return new Nio2Files(Demultiplexor.open(config).start());
    }

    @Override
    public String toString() {
        return name + ", " + Callers.kind() + " threads";
    }
}
