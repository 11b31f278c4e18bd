package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Choosing engines and wait strategies by configuration, the fallback, and strict mode. */
class EngineSelectionTest {

    @Test
    void everyWaitStrategyCanBeChosenByName() throws Exception {
        for (String ws : new NioEngineProvider().waitStrategies()) {
            try (Demultiplexor d = Demultiplexor.open(ProactorConfig.builder().waitStrategy(ws).threads(1).build())) {
                assertEquals("nio", d.getEngineName());
                assertEquals(ws, d.getWaitStrategyName());
            }
        }
        assertEquals(List.of("epoll", "poll", "busy-poll"), new NioEngineProvider().waitStrategies());
    }

    @Test
    void anUnavailableEngineFallsBackToNioWithItsDefaultWaitStrategy() throws Exception {
        try (Demultiplexor d = Demultiplexor.open(ProactorConfig.builder().engine(UnavailableEngineProvider.NAME)
                .waitStrategy("never").build())) {
            assertEquals("nio", d.getEngineName());
            assertEquals("epoll", d.getWaitStrategyName());
        }
    }

    @Test
    void strictModeFailsWithTheCause() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Demultiplexor.open(
                ProactorConfig.builder().engine(UnavailableEngineProvider.NAME).strict(true).build()));
        assertTrue(e.getMessage().contains(UnavailableEngineProvider.CAUSE), e.getMessage());
        assertTrue(e.getCause() instanceof UnsatisfiedLinkError);
    }

    @Test
    void systemPropertiesSwitchTheWaitStrategy() throws Exception {
        String old = System.getProperty(ProactorConfig.WAIT_STRATEGY);
        System.setProperty(ProactorConfig.WAIT_STRATEGY, "poll");
        try (Demultiplexor d = Demultiplexor.open()) {
            assertEquals("poll", d.getWaitStrategyName());
        } finally {
            if (old == null) {
                System.clearProperty(ProactorConfig.WAIT_STRATEGY);
            } else {
                System.setProperty(ProactorConfig.WAIT_STRATEGY, old);
            }
        }
    }
}
