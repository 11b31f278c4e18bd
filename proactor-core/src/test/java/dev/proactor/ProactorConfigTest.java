package dev.proactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertEquals("threadpool", c.fileEngine());
        assertEquals(2, c.fileThreads());
        assertEquals(c, ProactorConfig.builder().build());
    }

    @Test
    void everyPropertyIsRead() {
        ProactorConfig c = ProactorConfig.fromProperties(props("proactor.engine", "epoll", "proactor.waitStrategy",
                "poll", "proactor.threads", "3", "proactor.leader", "Dedicated", "proactor.maxInFlight", "64",
                "proactor.strict", "true", "proactor.fileEngine", " None ", "proactor.fileThreads", "5"));
        assertEquals(new ProactorConfig("epoll", "poll", 3, LeaderMode.DEDICATED, 64, true, "none", 5), c);
        assertEquals(c, c.toBuilder().build());
    }

    @Test
    void theBuilderSetsTheFileSettingsAndTheOlderConstructorDefaultsThem() {
        ProactorConfig c = ProactorConfig.builder().fileEngine(ProactorConfig.FILE_ENGINE_NONE).fileThreads(7).build();
        assertEquals("none", c.fileEngine());
        assertEquals(7, c.fileThreads());
        ProactorConfig old = new ProactorConfig("nio", null, 1, LeaderMode.SHARED, 0, false);
        assertEquals(ProactorConfig.FILE_ENGINE_THREADPOOL, old.fileEngine());
        assertEquals(ProactorConfig.DEFAULT_FILE_THREADS, old.fileThreads());
        assertEquals(java.util.List.of("threadpool", "none"), ProactorConfig.FILE_ENGINES);
    }

    /** {@code proactor.fileLanes} belongs to the NIO.2 file channels (FileSettingsTest), not to the core's settings. */
    @Test
    void fileLanesAreNotPartOfTheCoreConfiguration() {
        ProactorConfig c = ProactorConfig.fromProperties(props("proactor.fileLanes", " 16 "));
        assertEquals(ProactorConfig.builder().build(), c);
        assertEquals(16, dev.proactor.nio2.files.FileSettings.fromProperties(props("proactor.fileLanes", " 16 "))
                .lanes());
    }

    @Test
    void promptHandlersAreReadBuiltAndOffByDefault() {
        ProactorConfig c = ProactorConfig.fromProperties(props("proactor.promptHandlers", " TRUE "));
        assertTrue(c.promptHandlers());
        assertEquals(c, c.toBuilder().build());
        assertFalse(ProactorConfig.builder().build().promptHandlers());
        assertFalse(new ProactorConfig("nio", null, 1, LeaderMode.SHARED, 0, false, "none", 2, true)
                .promptHandlers());
        assertMessage("proactor.promptHandlers must be one of true, false; was 'sure'",
                props("proactor.promptHandlers", "sure"));
    }

    @Test
    void wrongValuesNameTheAllowedOnes() {
        assertMessage("proactor.leader must be one of shared, dedicated, owner; was 'boss'", props("proactor.leader", "boss"));
        assertMessage("proactor.threads must be a positive integer; was 'many'", props("proactor.threads", "many"));
        assertMessage("proactor.threads must be a positive integer, was 0", props("proactor.threads", "0"));
        assertMessage("proactor.maxInFlight must be >= 0 (0 = no limit), was -1", props("proactor.maxInFlight", "-1"));
        assertMessage("proactor.strict must be one of true, false; was 'yes'", props("proactor.strict", "yes"));
        assertMessage("proactor.fileEngine must be one of threadpool, none; was 'aio'",
                props("proactor.fileEngine", "aio"));
        assertMessage("proactor.fileThreads must be a positive integer; was 'two'",
                props("proactor.fileThreads", "two"));
        assertMessage("proactor.fileThreads must be a positive integer, was 0", props("proactor.fileThreads", "0"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProactorConfig.builder().fileEngine("pool").build());
        assertEquals("proactor.fileEngine must be one of threadpool, none; was 'pool'", e.getMessage());
        assertThrows(NullPointerException.class, () -> ProactorConfig.builder().fileEngine(null).build());
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
