package dev.proactor.examples.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a request target to a regular file under the document root, and guarantees that nothing outside the
 * root is ever returned.
 *
 * <p>Two layers keep requests inside the root. First, the path is checked syntactically: each segment is
 * percent-decoded on its own (so {@code %2F} can never become a separator), and a segment that decodes to
 * {@code ..}, contains a slash, a backslash, NUL or another control character, or is not valid UTF-8 is a
 * {@code 400}. Second, the candidate is resolved with {@link Path#toRealPath} (all symbolic links followed) and
 * must still start with the real root; a link leading out of the root is answered {@code 404}, as if the file
 * did not exist, so its target is not revealed. The same check is repeated for a directory's
 * {@code index.html}.
 *
 * <p>Outcomes: 200 with the real file, its size, modification time and content type; 400 (bad target), 403
 * (directory without {@code index.html}, not a regular file, or not readable), 404 (missing, outside the root,
 * or a file named with a trailing slash), 301 (a directory named without its trailing slash: relative links in
 * its page resolve against the directory only when the URL ends in a slash), 500 (an unexpected I/O error,
 * logged). The query string is ignored, except that a redirect keeps it.
 * Thread-safe (immutable).
 */
final class StaticFileResolver {

    private static final Logger LOG = LoggerFactory.getLogger(StaticFileResolver.class);

    /** The outcome of {@link #resolve}: a status, and for 200 the file to send. */
    record Resolution(int status, Path file, long size, long lastModifiedMillis, String contentType,
                      String detail) {

        static Resolution error(int status, String detail) {
            return new Resolution(status, null, 0, 0, null, detail);
        }

        /** A 301 to {@code location}, kept in {@link #detail()}. */
        static Resolution redirect(String location) {
            return new Resolution(301, null, 0, 0, null, location);
        }

        /** For a 301: the {@code Location} to send (the request's path with a slash added, and its query). */
        String location() {
            return detail;
        }
    }

    private final Path realRoot;

    /**
     * @throws IOException              if the root does not exist or cannot be resolved
     * @throws IllegalArgumentException if the root is not a directory
     */
    StaticFileResolver(Path root) throws IOException {
        this.realRoot = root.toRealPath();
        if (!Files.isDirectory(realRoot)) {
            throw new IllegalArgumentException("document root is not a directory: " + root);
        }
    }

    /** The document root with every symbolic link resolved. */
    Path root() {
        return realRoot;
    }

    /** Resolves a request target (origin-form {@code /a/b?q}, or absolute-form {@code http://host/a/b}). */
    Resolution resolve(String target) {
        String path = pathOf(target);
        if (path == null) {
            return Resolution.error(400, "request target is neither a path nor an http(s) URI");
        }
        if (path.indexOf('#') >= 0) {
            return Resolution.error(400, "fragment in request target");
        }
        Path candidate = realRoot;
        for (int i = 1; i <= path.length(); ) {
            int end = path.indexOf('/', i);
            if (end < 0) {
                end = path.length();
            }
            if (end > i) {
                String segment = decodeSegment(path, i, end);
                if (segment == null) {
                    return Resolution.error(400,
                            "bad percent-encoding, control character, encoded slash or backslash in path");
                }
                if (segment.equals("..")) {
                    return Resolution.error(400, "'..' segment in path");
                }
                if (!segment.equals(".")) {
                    try {
                        candidate = candidate.resolve(segment);
                    } catch (InvalidPathException e) {
                        return Resolution.error(400, "invalid path segment: " + e.getReason());
                    }
                }
            }
            i = end + 1;
        }
        Resolution r = resolveReal(candidate, path.endsWith("/"));
        if (r.status() == 301) {
            int query = target.indexOf('?', target.indexOf(path) + path.length());
            return Resolution.redirect(path + "/" + (query < 0 ? "" : target.substring(query)));
        }
        return r;
    }

    private Resolution resolveReal(Path candidate, boolean trailingSlash) {
        try {
            Path real = candidate.toRealPath();
            if (!real.startsWith(realRoot)) {
                return Resolution.error(404, "resolves outside the root");
            }
            BasicFileAttributes attrs = Files.readAttributes(real, BasicFileAttributes.class);
            if (attrs.isDirectory()) {
                if (!trailingSlash) {
                    return Resolution.error(301, "directory without trailing slash");
                }
                Path index;
                try {
                    index = real.resolve("index.html").toRealPath();
                } catch (FileSystemException e) {
                    return Resolution.error(403, "directory without index.html");
                }
                if (!index.startsWith(realRoot)) {
                    return Resolution.error(404, "index.html resolves outside the root");
                }
                real = index;
                attrs = Files.readAttributes(real, BasicFileAttributes.class);
            } else if (trailingSlash) {
                return Resolution.error(404, "a file named with a trailing slash");
            }
            if (!attrs.isRegularFile()) {
                return Resolution.error(403, "not a regular file");
            }
            if (!Files.isReadable(real)) {
                return Resolution.error(403, "not readable");
            }
            return new Resolution(200, real, attrs.size(), attrs.lastModifiedTime().toMillis(),
                    MimeTypes.forFileName(real.getFileName().toString()), null);
        } catch (AccessDeniedException e) {
            return Resolution.error(403, "access denied");
        } catch (FileSystemException e) {
            // No such file, a file used as a directory (ENOTDIR), a name too long, a link loop: all "not there".
            return Resolution.error(404, "not found");
        } catch (IOException e) {
            LOG.warn("resolving {} failed", candidate, e);
            return Resolution.error(500, "I/O error");
        }
    }

    /** The path part of an origin-form or absolute-form target, without the query; null if neither form. */
    private static String pathOf(String target) {
        int from;
        if (target.startsWith("/")) {
            from = 0;
        } else {
            int schemeEnd = target.regionMatches(true, 0, "http://", 0, 7) ? 7
                    : target.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
            if (schemeEnd < 0) {
                return null;
            }
            int p = schemeEnd;
            while (p < target.length() && target.charAt(p) != '/' && target.charAt(p) != '?') {
                p++; // skip the authority
            }
            if (p == target.length() || target.charAt(p) == '?') {
                return "/";
            }
            from = p;
        }
        int query = target.indexOf('?', from);
        return target.substring(from, query < 0 ? target.length() : query);
    }

    /**
     * Percent-decodes {@code path[from, to)} as UTF-8; null if an escape is malformed, the bytes are not UTF-8,
     * or a byte is a slash, backslash or control character (decoded or literal).
     */
    static String decodeSegment(String path, int from, int to) {
        byte[] bytes = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            int c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= to) {
                    return null;
                }
                int hi = Character.digit(path.charAt(i + 1), 16);
                int lo = Character.digit(path.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                c = hi << 4 | lo;
                i += 2;
            } else if (c > 0x7E) {
                return null; // the parser only lets visible ASCII through; be strict if called otherwise
            }
            if (c < 0x20 || c == 0x7F || c == '/' || c == '\\') {
                return null;
            }
            bytes[n++] = (byte) c;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n))
                    .toString();
        } catch (CharacterCodingException e) {
            return null; // not UTF-8: no file name on the root's file system can match it reliably
        }
    }
}
