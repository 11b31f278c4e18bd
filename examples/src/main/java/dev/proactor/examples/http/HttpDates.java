package dev.proactor.examples.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * HTTP dates (RFC 9110 §5.6.7): formats IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}) straight into a
 * buffer without allocating, and parses the three formats a recipient must accept (IMF-fixdate, the obsolete
 * RFC 850 and asctime forms). All times are UTC; HTTP dates have one-second resolution.
 *
 * <p>The calendar arithmetic is done here (proleptic Gregorian, days relative to 1970-01-01) rather than with
 * {@code java.time}, so that formatting on the per-response path allocates nothing.
 */
final class HttpDates {

    /** Length of an IMF-fixdate in bytes. */
    static final int IMF_FIXDATE_LENGTH = 29;

    // Index 0 is Monday; 1970-01-01 (epoch day 0) was a Thursday, hence the +3 in dayOfWeek().
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] LONG_DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    private HttpDates() {
    }

    /**
     * Writes {@code epochMillis} (rounded down to the second) as an IMF-fixdate at {@code dst}'s position,
     * advancing it by {@link #IMF_FIXDATE_LENGTH}.
     *
     * @throws java.nio.BufferOverflowException if fewer than 29 bytes remain
     */
    static void format(long epochMillis, ByteBuffer dst) {
        long seconds = Math.floorDiv(epochMillis, 1000L);
        long days = Math.floorDiv(seconds, 86_400L);
        int secOfDay = (int) Math.floorMod(seconds, 86_400L);
        long ymd = civilFromDays(days);
        int year = (int) (ymd >> 9);
        int month = (int) ((ymd >> 5) & 0xF);
        int day = (int) (ymd & 0x1F);
        putAscii(dst, DAYS[dayOfWeek(days)]);
        dst.put((byte) ',').put((byte) ' ');
        put2(dst, day);
        dst.put((byte) ' ');
        putAscii(dst, MONTHS[month - 1]);
        dst.put((byte) ' ');
        put4(dst, year);
        dst.put((byte) ' ');
        put2(dst, secOfDay / 3600);
        dst.put((byte) ':');
        put2(dst, secOfDay / 60 % 60);
        dst.put((byte) ':');
        put2(dst, secOfDay % 60);
        putAscii(dst, " GMT");
    }

    /** {@link #format(long, ByteBuffer)} into a new string (tests and logs). */
    static String format(long epochMillis) {
        ByteBuffer b = ByteBuffer.allocate(IMF_FIXDATE_LENGTH);
        format(epochMillis, b);
        return new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII);
    }

    /** {@link #parse(ByteBuffer, int, int)} of a string. */
    static long parse(String s) {
        return parse(ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1)), 0, s.length());
    }

    /**
     * Parses the HTTP-date in {@code src[from, to)} (absolute indexes; the buffer's position is not used or
     * changed).
     *
     * @return seconds since the epoch, or -1 if the text is not a valid HTTP-date in any of the three formats
     *         (a recipient ignores an invalid date, RFC 9110 §13.1.3)
     */
    static long parse(ByteBuffer src, int from, int to) {
        int len = to - from;
        if (len == IMF_FIXDATE_LENGTH && src.get(from + 3) == ',') {
            return parseImfFixdate(src, from);
        }
        if (len == 24 && src.get(from + 3) == ' ') {
            return parseAsctime(src, from);
        }
        int comma = indexOf(src, from, Math.min(to, from + 10), (byte) ',');
        if (comma > 0) {
            return parseRfc850(src, from, comma, to);
        }
        return -1;
    }

    // "Sun, 06 Nov 1994 08:49:37 GMT"
    private static long parseImfFixdate(ByteBuffer s, int p) {
        if (find(s, p, DAYS) < 0 || s.get(p + 4) != ' ' || s.get(p + 7) != ' ' || s.get(p + 11) != ' '
                || s.get(p + 16) != ' ' || !matches(s, p + 25, " GMT")) {
            return -1;
        }
        int day = digits(s, p + 5, 2);
        int month = find(s, p + 8, MONTHS) + 1;
        int year = digits(s, p + 12, 4);
        return toEpochSeconds(year, month, day, s, p + 17);
    }

    // "Sun Nov  6 08:49:37 1994"
    private static long parseAsctime(ByteBuffer s, int p) {
        if (find(s, p, DAYS) < 0 || s.get(p + 7) != ' ' || s.get(p + 10) != ' ' || s.get(p + 19) != ' ') {
            return -1;
        }
        int month = find(s, p + 4, MONTHS) + 1;
        int day = s.get(p + 8) == ' ' ? digits(s, p + 9, 1) : digits(s, p + 8, 2);
        int year = digits(s, p + 20, 4);
        return toEpochSeconds(year, month, day, s, p + 11);
    }

    // "Sunday, 06-Nov-94 08:49:37 GMT"
    private static long parseRfc850(ByteBuffer s, int p, int comma, int to) {
        if (to - comma != 24 || findWhole(s, p, comma - p, LONG_DAYS) < 0) {
            return -1;
        }
        int q = comma + 1;
        if (s.get(q) != ' ' || s.get(q + 3) != '-' || s.get(q + 7) != '-' || s.get(q + 10) != ' '
                || !matches(s, q + 19, " GMT")) {
            return -1;
        }
        int day = digits(s, q + 1, 2);
        int month = find(s, q + 4, MONTHS) + 1;
        int yy = digits(s, q + 8, 2);
        if (yy < 0) {
            return -1;
        }
        // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is in the past century.
        int thisYear = (int) (civilFromDays(Math.floorDiv(System.currentTimeMillis(), 86_400_000L)) >> 9);
        int year = thisYear - Math.floorMod(thisYear, 100) + yy;
        if (year > thisYear + 50) {
            year -= 100;
        }
        return toEpochSeconds(year, month, day, s, q + 11);
    }

    /** Validates the date and the "HH:MM:SS" at {@code t}; -1 if anything is out of range. */
    private static long toEpochSeconds(int year, int month, int day, ByteBuffer s, int t) {
        if (s.get(t + 2) != ':' || s.get(t + 5) != ':') {
            return -1;
        }
        int h = digits(s, t, 2);
        int m = digits(s, t + 3, 2);
        int sec = digits(s, t + 6, 2);
        if (year < 0 || month < 1 || day < 1 || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 60) {
            return -1;
        }
        long days = daysFromCivil(year, month, day);
        if (civilFromDays(days) != pack(year, month, day)) {
            return -1; // e.g. 31 Feb: the day does not exist in that month
        }
        return days * 86_400L + h * 3600L + m * 60L + Math.min(sec, 59); // a leap second counts as :59
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (month 1..12). */
    static long daysFromCivil(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;                                        // [0, 399]
        int shiftedMonth = month > 2 ? month - 3 : month + 9;                  // March = 0
        long dayOfYear = (153L * shiftedMonth + 2) / 5 + day - 1;              // [0, 365]
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    /** The date of a day since 1970-01-01, packed as {@code year << 9 | month << 5 | day}. */
    static long civilFromDays(long days) {
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;                                     // [0, 146096]
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;                         // March = 0
        int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return pack(year, month, day);
    }

    private static long pack(long year, int month, int day) {
        return year << 9 | (long) month << 5 | day;
    }

    private static int dayOfWeek(long days) {
        return (int) Math.floorMod(days + 3, 7L);
    }

    /** The value of {@code n} ASCII digits at {@code p}, or -1 if one is not a digit. */
    private static int digits(ByteBuffer s, int p, int n) {
        int v = 0;
        for (int i = 0; i < n; i++) {
            int d = s.get(p + i) - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** Index in {@code names} of the name at {@code p} (case-sensitive, as RFC 9110 requires), or -1. */
    private static int find(ByteBuffer s, int p, String[] names) {
        for (int i = 0; i < names.length; i++) {
            if (matches(s, p, names[i])) {
                return i;
            }
        }
        return -1;
    }

    private static int findWhole(ByteBuffer s, int p, int len, String[] names) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].length() == len && matches(s, p, names[i])) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matches(ByteBuffer s, int p, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (s.get(p + i) != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(ByteBuffer s, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (s.get(i) == b) {
                return i;
            }
        }
        return -1;
    }

    private static void putAscii(ByteBuffer dst, String s) {
        for (int i = 0; i < s.length(); i++) {
            dst.put((byte) s.charAt(i));
        }
    }

    private static void put2(ByteBuffer dst, int v) {
        dst.put((byte) ('0' + v / 10)).put((byte) ('0' + v % 10));
    }

    private static void put4(ByteBuffer dst, int v) {
        put2(dst, v / 100 % 100);
        put2(dst, v % 100);
    }
}
