package dev.proactor.examples.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 section 5.6.7) through {@code java.time}: formats the IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}) and parses it and the two obsolete forms a recipient must accept
 * (RFC 850 and asctime).
 *
 * <p>A response carries {@code Date} (now) and usually {@code Last-Modified}; each goes through a one-entry
 * cache keyed by the epoch second, so the formatter runs (and allocates) about once a second rather than once
 * a response. The caches are immutable records behind a plain field: a racing thread at worst formats the same
 * second again. Parsing (only for {@code If-Modified-Since}) allocates.
 */
final class HttpDates {

    /** Length of an IMF-fixdate. */
    static final int IMF_FIXDATE_LENGTH = 29;

    /** IMF-fixdate; {@code dd} keeps the day two digits wide, which {@code RFC_1123_DATE_TIME} does not. */
    private static final DateTimeFormatter IMF_FIXDATE = new DateTimeFormatterBuilder()
            .appendPattern("EEE, dd MMM ")
            .appendValue(ChronoField.YEAR, 4)
            .appendPattern(" HH:mm:ss 'GMT'")
            .toFormatter(Locale.US).withZone(ZoneOffset.UTC).withResolverStyle(ResolverStyle.STRICT);

    /** RFC 850: {@code Sunday, 06-Nov-94 08:49:37 GMT}; a two-digit year is taken from 1970 .. 2069. */
    private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
            .appendPattern("EEEE, dd-MMM-")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
            .appendPattern(" HH:mm:ss 'GMT'")
            .toFormatter(Locale.US).withZone(ZoneOffset.UTC).withResolverStyle(ResolverStyle.STRICT);

    /** asctime: {@code Sun Nov  6 08:49:37 1994} (day padded with a space). */
    private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
            .appendPattern("EEE MMM ")
            .padNext(2, ' ').appendValue(ChronoField.DAY_OF_MONTH, 1, 2, SignStyle.NOT_NEGATIVE)
            .appendPattern(" HH:mm:ss ")
            .appendValue(ChronoField.YEAR, 4)
            .toFormatter(Locale.US).withZone(ZoneOffset.UTC).withResolverStyle(ResolverStyle.STRICT);

    /** One formatted second. */
    private record Formatted(long epochSecond, byte[] ascii) {
    }

    private static Formatted lastNow = new Formatted(Long.MIN_VALUE, new byte[0]); // matches no second
    private static Formatted lastOther = lastNow;

    private HttpDates() {
    }

    /**
     * Appends the IMF-fixdate of {@code epochMillis} (truncated to the second) to {@code dst}. Meant for the
     * current time; see {@link #formatOther}.
     */
    static void format(long epochMillis, ByteBuffer dst) {
        long second = Math.floorDiv(epochMillis, 1000);
        Formatted f = lastNow;
        if (f.epochSecond != second) {
            f = formatSecond(second);
            lastNow = f;
        }
        dst.put(f.ascii);
    }

    /** Like {@link #format(long, ByteBuffer)} with its own cache, for dates other than now (Last-Modified). */
    static void formatOther(long epochMillis, ByteBuffer dst) {
        long second = Math.floorDiv(epochMillis, 1000);
        Formatted f = lastOther;
        if (f.epochSecond != second) {
            f = formatSecond(second);
            lastOther = f;
        }
        dst.put(f.ascii);
    }

    /** The IMF-fixdate of {@code epochMillis}, truncated to the second. */
    static String format(long epochMillis) {
        return new String(formatSecond(Math.floorDiv(epochMillis, 1000)).ascii, StandardCharsets.US_ASCII);
    }

    private static Formatted formatSecond(long epochSecond) {
        String text = IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
        return new Formatted(epochSecond, text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Parses an HTTP date in any of the three forms; -1 if it is none of them. */
    static long parse(String s) {
        for (DateTimeFormatter f : new DateTimeFormatter[] {IMF_FIXDATE, RFC_850, ASCTIME}) {
            try {
                return ZonedDateTime.parse(s, f).toEpochSecond();
            } catch (DateTimeParseException e) {
                // not this form; try the next
            }
        }
        return -1;
    }

    /** Parses the ASCII bytes {@code [from, to)} of {@code src} (positions untouched); -1 if not a date. */
    static long parse(ByteBuffer src, int from, int to) {
        byte[] bytes = new byte[Math.max(0, to - from)];
        src.get(from, bytes);
        return parse(new String(bytes, StandardCharsets.US_ASCII));
    }
}
