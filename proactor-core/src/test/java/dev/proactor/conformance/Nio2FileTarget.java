package dev.proactor.conformance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import java.io.IOException;
import java.util.stream.Stream;

/**
 * The file channels a contract test runs against: the JDK's ({@code FileChannel.open},
 * {@code AsynchronousFileChannel.open}; the reference: a contract test that fails on them reads the contract wrong)
 * or ours ({@link dev.proactor.nio2.ProactorFiles}) on one engine's file engine. Engine modules return
 * {@link #ofEngine(String)} (and the {@code nio} module also {@link #jdk()}) from a static {@code targets()}
 * method of their concrete test classes.
 *
 * @param name   shown in the test name
 * @param config our demultiplexor's configuration; null for the JDK's channels
 */
public record Nio2FileTarget(String name, ProactorConfig config) {

    /** The JDK's own file channels. */
    public static Nio2FileTarget jdk() {
        return new Nio2FileTarget("jdk", null);
    }

    /** Ours on {@code engine} (its default wait strategy, a shared leader, two pool threads). */
    public static Stream<Nio2FileTarget> ofEngine(String engine) {
        return Stream.of(new Nio2FileTarget(engine, ProactorConfig.builder().engine(engine).threads(2)
                .strict(true).build()));
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
