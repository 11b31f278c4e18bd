package dev.proactor.nio2.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Reading the settings of the NIO.2 file channels: the default, the property, and clear errors that name the
 * allowed values (as {@code ProactorConfig} read {@code proactor.fileLanes} when it carried it).
 */
class FileSettingsTest {

    private static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }

    @Test
    void fileLanesAreReadAndDefaulted() {
        assertEquals(128, FileSettings.fromProperties(new Properties()).lanes());
        assertEquals(FileSettings.DEFAULT_LANES, FileSettings.fromProperties(new Properties()).lanes());
        assertEquals(16, FileSettings.fromProperties(props("proactor.fileLanes", " 16 ")).lanes());
        assertEquals(new FileSettings(3), FileSettings.fromProperties(props(FileSettings.LANES, "3")));
    }

    @Test
    void wrongValuesNameTheAllowedOnes() {
        assertMessage("proactor.fileLanes must be a positive integer; was 'all'", props("proactor.fileLanes", "all"));
        assertMessage("proactor.fileLanes must be a positive integer, was 0", props("proactor.fileLanes", "0"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FileSettings(-1));
        assertEquals("proactor.fileLanes must be a positive integer, was -1", e.getMessage());
    }

    private static void assertMessage(String expected, Properties p) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FileSettings.fromProperties(p));
        assertEquals(expected, e.getMessage());
    }
}
