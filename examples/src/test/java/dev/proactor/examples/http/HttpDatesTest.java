package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpDatesTest {

    private static final long RFC_EXAMPLE = 784111777L; // Sun, 06 Nov 1994 08:49:37 GMT
    private static final DateTimeFormatter IMF = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    @Test
    void formatsImfFixdate() {
        assertEquals("Thu, 01 Jan 1970 00:00:00 GMT", HttpDates.format(0));
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDates.format(RFC_EXAMPLE * 1000 + 999));
        assertEquals("Wed, 31 Dec 1969 23:59:59 GMT", HttpDates.format(-1));
        assertEquals("Tue, 29 Feb 2000 12:00:00 GMT", HttpDates.format(951825600_000L));
    }

    @Test
    void agreesWithJavaTimeOnRandomInstants() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            long seconds = random.nextLong() % 253_402_300_799L; // years 1 .. 9999 around the epoch
            if (seconds < -62_135_596_800L) {
                seconds = -seconds;
            }
            String expected = IMF.format(Instant.ofEpochSecond(seconds));
            assertEquals(expected, HttpDates.format(seconds * 1000), "seconds " + seconds);
            assertEquals(seconds, HttpDates.parse(expected), expected);
        }
    }

    @Test
    void parsesAllThreeFormats() {
        assertEquals(RFC_EXAMPLE, HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(RFC_EXAMPLE, HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(RFC_EXAMPLE, HttpDates.parse("Sun Nov  6 08:49:37 1994"));
        assertEquals(RFC_EXAMPLE + 3 * 86_400, HttpDates.parse("Wed Nov 09 08:49:37 1994"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 19x4 08:49:37 GMT",
        "Sun, 06 Nov 1994 08-49-37 GMT", "Sunday, 06-Nov-94 08:49:37 UTC", "Sonntag, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 19945", "Sun Xyz  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT ",
    })
    void rejectsInvalidDates(String text) {
        assertEquals(-1, HttpDates.parse(text), text);
    }
}
