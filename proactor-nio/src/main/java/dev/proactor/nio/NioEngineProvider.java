package dev.proactor.nio;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineProvider;
import dev.proactor.spi.EngineSettings;
import java.io.IOException;
import java.nio.channels.Selector;
import java.nio.channels.spi.SelectorProvider;
import java.util.List;

/**
 * Provider of the emulated engine {@code nio}. Wait strategies:
 * <ul>
 * <li>{@code epoll}: the JDK's default selector (epoll on Linux; on other systems this strategy is called
 *     {@code default} and is whatever the JDK uses there);</li>
 * <li>{@code poll}: the JDK's poll(2) selector. It lives in the JDK-internal package {@code sun.nio.ch}, so the
 *     JVM needs {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED} (the examples jar's manifest sets it);
 *     without it, choosing {@code poll} fails with that explanation;</li>
 * <li>{@code busy-poll}: spins on {@code selectNow} for the lowest latency at the cost of a busy core.</li>
 * </ul>
 */
public final class NioEngineProvider implements EngineProvider {

    /** The engine name. */
    public static final String NAME = "nio";
    /** The JDK poll selector's wait strategy name. */
    public static final String POLL = "poll";

    private static final String DEFAULT_STRATEGY = SelectorProvider.provider().getClass().getName()
            .contains("EPoll") ? "epoll" : "default";

    /** Creates the provider; called by {@link java.util.ServiceLoader}. Does no I/O. */
    public NioEngineProvider() {
        // Nothing to prepare: selectors are opened per engine.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public Throwable unavailabilityCause() {
        return null;
    }

    @Override
    public List<String> waitStrategies() {
        return List.of(DEFAULT_STRATEGY, POLL, BusyPollWaitStrategy.NAME);
    }

    @Override
    public Engine create(EngineSettings settings) throws IOException {
        String ws = settings.waitStrategy();
        if (ws.equals(POLL)) {
            return new NioEngine(openPollSelector(), (sel, onReady, done) ->
                    new SelectorWaitStrategy(POLL, sel, onReady, done));
        }
        if (ws.equals(BusyPollWaitStrategy.NAME)) {
            return new NioEngine(Selector.open(), BusyPollWaitStrategy::new);
        }
        if (ws.equals(DEFAULT_STRATEGY)) {
            return new NioEngine(Selector.open(), (sel, onReady, done) ->
                    new SelectorWaitStrategy(DEFAULT_STRATEGY, sel, onReady, done));
        }
        throw new IllegalArgumentException("unknown nio wait strategy '" + ws + "'; allowed: " + waitStrategies());
    }

    /** Opens the JDK's poll(2) selector, which is not part of the public API. */
    static Selector openPollSelector() throws IOException {
        try {
            Class<?> c = Class.forName("sun.nio.ch.PollSelectorProvider");
            SelectorProvider p = (SelectorProvider) c.getDeclaredConstructor().newInstance();
            return p.openSelector();
        } catch (IllegalAccessException | IllegalAccessError e) {
            throw new IOException("wait strategy 'poll' needs the JVM option "
                    + "--add-exports java.base/sun.nio.ch=ALL-UNNAMED (the JDK's poll selector is internal)", e);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IOException("this JDK has no poll selector (sun.nio.ch.PollSelectorProvider)", e);
        }
    }
}
