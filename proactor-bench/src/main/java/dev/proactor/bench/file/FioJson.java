package dev.proactor.bench.file;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what the file benchmark needs from fio's {@code --output-format=json}: a minimal JSON reader (objects,
 * arrays, strings, numbers, literals) into maps and lists, then the read side of the first job. fio may print
 * warnings before the JSON document; everything before the first <code>{</code> is skipped.
 */
final class FioJson {

    /** What one fio job did while reading. */
    record FioRead(long ios, long bytes, double seconds, double iops, double p50Us, double p99Us) {
    }

    private final String text;
    private int pos;

    private FioJson(String text) {
        this.text = text;
    }

    /**
     * Parses fio's JSON output.
     *
     * @throws IllegalArgumentException if it is not JSON or lacks {@code jobs[0].read}
     */
    static FioRead parseRead(String output) {
        int start = output.indexOf('{');
        if (start < 0) {
            throw new IllegalArgumentException("no JSON object in fio's output");
        }
        FioJson p = new FioJson(output);
        p.pos = start;
        Object doc = p.value();
        Map<?, ?> read = map(map(list(map(doc).get("jobs"), "jobs").get(0)).get("read"));
        double runtimeMs = number(read, "runtime");
        long ios = (long) number(read, "total_ios");
        long bytes = (long) number(read, "io_bytes");
        Map<?, ?> clat = map(read.get("clat_ns"));
        Map<?, ?> pct = map(clat.get("percentile"));
        return new FioRead(ios, bytes, runtimeMs / 1000.0, number(read, "iops"),
                number(pct, "50.000000") / 1000.0, number(pct, "99.000000") / 1000.0);
    }

    private static Map<?, ?> map(Object o) {
        if (o instanceof Map<?, ?> m) {
            return m;
        }
        throw new IllegalArgumentException("fio JSON: expected an object, found " + o);
    }

    private static List<?> list(Object o, String name) {
        if (o instanceof List<?> l && !l.isEmpty()) {
            return l;
        }
        throw new IllegalArgumentException("fio JSON: '" + name + "' is missing or empty");
    }

    private static double number(Map<?, ?> m, String key) {
        if (m.get(key) instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException("fio JSON: no number '" + key + "'");
    }

    private Object value() {
        skipSpace();
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            default:
                if (text.startsWith("true", pos)) {
                    pos += 4;
                    return Boolean.TRUE;
                }
                if (text.startsWith("false", pos)) {
                    pos += 5;
                    return Boolean.FALSE;
                }
                if (text.startsWith("null", pos)) {
                    pos += 4;
                    return null;
                }
                return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            m.put(key, value());
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek() == ']') {
            pos++;
            return l;
        }
        while (true) {
            l.add(value());
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                if (pos >= text.length()) {
                    break;
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (pos + 4 > text.length()) {
                            throw error("bad \\u escape");
                        }
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
        throw error("unterminated string");
    }

    private Double number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        if (start == pos) {
            throw error("unexpected character '" + text.charAt(pos) + "'");
        }
        return Double.valueOf(text.substring(start, pos));
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("fio JSON: " + what + " at offset " + pos);
    }
}
