package dev.proactor.nio;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineProvider;
import dev.proactor.spi.EngineSettings;
import java.util.List;

/** An engine that is never available, to test the fallback to {@code nio} and strict mode. */
public final class UnavailableEngineProvider implements EngineProvider {

    static final String NAME = "test-unavailable";
    static final String CAUSE = "missing on purpose (test)";

    /** Called by the service loader. */
    public UnavailableEngineProvider() {
        // nothing to prepare
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return false;
    }

    @Override
    public Throwable unavailabilityCause() {
        return new UnsatisfiedLinkError(CAUSE);
    }

    @Override
    public List<String> waitStrategies() {
        return List.of("never");
    }

    @Override
    public Engine create(EngineSettings settings) {
        throw new IllegalStateException("unavailable");
    }
}
