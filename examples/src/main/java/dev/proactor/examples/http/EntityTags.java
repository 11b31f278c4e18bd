package dev.proactor.examples.http;

/**
 * The strong entity-tag of a static file and the conditional fields that compare against it (RFC 9110 sections
 * 8.8.3, 13.1.2 and 13.1.5).
 *
 * <p>The tag is {@code "<size hex>-<mtime ms hex>"}: a file rewritten in place with the same size within the same
 * millisecond keeps its tag, which is the usual trade of static servers (no hashing of content). It is written
 * into the response head without allocating; only a request carrying {@code If-None-Match} or {@code If-Range}
 * builds the tag as a String to compare.
 */
final class EntityTags {

    private EntityTags() {
    }

    /** The tag, quotes included. */
    static String of(long size, long lastModifiedMillis) {
        return "\"" + Long.toHexString(size) + "-" + Long.toHexString(lastModifiedMillis) + "\"";
    }

    /**
     * Whether an {@code If-None-Match} list matches the file: {@code *}, or one of its tags equal to the file's
     * by weak comparison (a {@code W/} prefix does not matter), which is what this field uses.
     */
    static boolean noneMatchHits(String field, long size, long lastModifiedMillis) {
        String tag = of(size, lastModifiedMillis);
        for (String item : field.split(",")) {
            String t = item.trim();
            if (t.equals("*")) {
                return true;
            }
            if (t.startsWith("W/")) {
                t = t.substring(2);
            }
            if (t.equals(tag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code If-Range} lets the range through: a strong tag equal to the file's (a weak one never
     * matches), or an HTTP date equal to the file's last modification (to the second).
     */
    static boolean ifRangeHolds(String field, long size, long lastModifiedMillis) {
        String t = field.trim();
        if (t.startsWith("\"")) {
            return t.equals(of(size, lastModifiedMillis));
        }
        if (t.startsWith("W/")) {
            return false;
        }
        long date = HttpDates.parse(t);
        return date >= 0 && date == Math.floorDiv(lastModifiedMillis, 1000L);
    }
}
