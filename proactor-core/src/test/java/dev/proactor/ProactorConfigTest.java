package dev.proactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.testengine.ManualEngineProvider;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Reading the settings: defaults, every property, and clear errors that name the allowed values. */
class ProactorConfigTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void defaults() {
        ProactorConfig c = ProactorConfig.fromProperties(new Properties());
        assertEquals("nio", c.engine());
        assertNull(c.waitStrategy());
        assertEquals(Runtime.getRuntime().availableProcessors(), c.threads());
        assertEquals(LeaderMode.SHARED, c.leader());
        assertEquals(0, c.maxInFlight());
    }

    @Test
    void everyPropertyIsRead() {
        ProactorConfig c = ProactorConfig.fromProperties(props("proactor.engine", "epoll", "proactor.waitStrategy",
                "poll", "proactor.threads", "3", "proactor.leader", "Dedicated", "proactor.maxInFlight", "64",
                "proactor.strict", "true"));
        assertEquals(new ProactorConfig("epoll", "poll", 3, LeaderMode.DEDICATED, 64, true), c);
        assertEquals(c, c.toBuilder().build());
    }

    @Test
    void wrongValuesNameTheAllowedOnes() {
        assertMessage("proactor.leader must be one of shared, dedicated; was 'boss'", props("proactor.leader", "boss"));
        assertMessage("proactor.threads must be a positive integer; was 'many'", props("proactor.threads", "many"));
        assertMessage("proactor.threads must be a positive integer, was 0", props("proactor.threads", "0"));
        assertMessage("proactor.maxInFlight must be >= 0 (0 = no limit), was -1", props("proactor.maxInFlight", "-1"));
        assertMessage("proactor.strict must be one of true, false; was 'yes'", props("proactor.strict", "yes"));
    }

    private static void assertMessage(String expected, Properties p) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProactorConfig.fromProperties(p));
        assertEquals(expected, e.getMessage());
    }

    @Test
    void unknownEngineAndWaitStrategyNameWhatExists() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Demultiplexor.open(ProactorConfig.builder().engine("warp-drive").build()));
        assertTrue(e.getMessage().contains("proactor.engine must be one of") && e.getMessage().contains(
                ManualEngineProvider.NAME) && e.getMessage().contains("'warp-drive'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Demultiplexor.open(
                ProactorConfig.builder().engine(ManualEngineProvider.NAME).waitStrategy("telepathy").build()));
        assertEquals("proactor.waitStrategy for engine 'test-manual' must be one of semaphore; was 'telepathy'",
                e.getMessage());
    }
}
