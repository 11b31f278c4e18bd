package dev.proactor.internal;

import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineProvider;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds engine providers with {@link ServiceLoader} and picks the one a configuration asks for: an unknown name
 * is an error naming the engines found; an engine that is present but cannot load falls back to
 * {@value ProactorConfig#DEFAULT_ENGINE} with one WARN line giving the cause, or fails when the configuration is
 * strict.
 */
final class EngineSelector {

    private static final Logger LOG = LoggerFactory.getLogger(EngineSelector.class);

    /** The provider to use and the wait strategy to create it with. */
    record Choice(EngineProvider provider, String waitStrategy) {
    }

    private EngineSelector() {
    }

    /** Every engine provider on the class path or module path, by name. */
    static Map<String, EngineProvider> providers() {
        Map<String, EngineProvider> byName = new LinkedHashMap<>();
        for (EngineProvider p : ServiceLoader.load(EngineProvider.class, EngineSelector.class.getClassLoader())) {
            byName.putIfAbsent(p.name(), p);
        }
        return byName;
    }

    static Choice choose(ProactorConfig config) {
        Map<String, EngineProvider> all = providers();
        EngineProvider p = all.get(config.engine());
        if (p == null) {
            throw new IllegalArgumentException(ProactorConfig.ENGINE + " must be one of " + String.join(", ",
                    all.keySet()) + " (engines found); was '" + config.engine() + "'");
        }
        if (!p.isAvailable()) {
            Throwable cause = p.unavailabilityCause();
            if (config.strict()) {
                throw new IllegalStateException("engine '" + p.name() + "' is unavailable and "
                        + ProactorConfig.STRICT + "=true: " + cause, cause);
            }
            EngineProvider fallback = all.get(ProactorConfig.DEFAULT_ENGINE);
            if (fallback == null || !fallback.isAvailable() || fallback == p) {
                throw new IllegalStateException("engine '" + p.name() + "' is unavailable (" + cause
                        + ") and the fallback engine '" + ProactorConfig.DEFAULT_ENGINE + "' is missing", cause);
            }
            LOG.warn("engine '{}' is unavailable, falling back to '{}': {}", p.name(), fallback.name(),
                    String.valueOf(cause));
            return new Choice(fallback, fallback.waitStrategies().get(0));
        }
        String ws = config.waitStrategy();
        if (ws == null) {
            return new Choice(p, p.waitStrategies().get(0));
        }
        if (!p.waitStrategies().contains(ws)) {
            throw new IllegalArgumentException(ProactorConfig.WAIT_STRATEGY + " for engine '" + p.name()
                    + "' must be one of " + String.join(", ", p.waitStrategies()) + "; was '" + ws + "'");
        }
        return new Choice(p, ws);
    }
}
