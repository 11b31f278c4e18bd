package dev.proactor.bench.server.http;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Maps a request path to a regular file under the document root.
 *
 * <p>The path is checked syntactically: it must start with {@code /}, and no decoded segment may be
 * {@code .} or {@code ..} or contain a backslash or a control character, so a request cannot name a
 * file outside the root. Symbolic links inside the root are followed (as nginx does by default).
 * A directory serves its {@code index.html}. Thread-safe (immutable).
 */
final class DocumentRoot {
    private static final String INDEX = "index.html";
    private static final String NOT_A_DIRECTORY = "Not a directory";

    private final Path root;

    /**
     * Creates the mapping.
     *
     * @param root absolute, normalized document root
     */
    DocumentRoot(Path root) {
        this.root = root;
    }

    /**
     * Resolves a decoded request path (without query string).
     *
     * @param decodedPath the path, e.g. {@code /dir/file.bin}
     * @return the outcome: 200 with the file, or 400 / 403 / 404 / 500
     */
    FileLookup lookup(String decodedPath) {
        if (decodedPath.isEmpty() || decodedPath.charAt(0) != '/') {
            return FileLookup.error(400, "path does not start with /");
        }
        Path candidate = root;
        for (String segment : decodedPath.substring(1).split("/", -1)) {
            if (segment.isEmpty()) {
                continue;
            }
            if (segment.equals(".") || segment.equals("..") || hasForbiddenChar(segment)) {
                return FileLookup.error(400, "forbidden path segment");
            }
            candidate = candidate.resolve(segment);
        }
        FileLookup found = regularFile(candidate);
        if (found.status() == FileLookup.DIRECTORY) {
            found = regularFile(candidate.resolve(INDEX));
            if (found.status() == FileLookup.DIRECTORY || found.status() == 404) {
                return FileLookup.error(403, "directory without " + INDEX);
            }
        }
        return found;
    }

    private static FileLookup regularFile(Path file) {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return FileLookup.error(404, "no such file");
        } catch (AccessDeniedException e) {
            return FileLookup.error(403, "access denied");
        } catch (FileSystemException e) {
            if (NOT_A_DIRECTORY.equals(e.getReason())) {
                return FileLookup.error(404, "a path segment is a file"); // ENOTDIR: /file.bin/x
            }
            return FileLookup.error(500, "cannot read attributes: " + e);
        } catch (IOException e) {
            return FileLookup.error(500, "cannot read attributes: " + e);
        }
        if (attrs.isDirectory()) {
            return FileLookup.error(FileLookup.DIRECTORY, "directory");
        }
        if (!attrs.isRegularFile()) {
            return FileLookup.error(403, "not a regular file");
        }
        return new FileLookup(200, file, attrs.size(), attrs.lastModifiedTime().toMillis(), "");
    }

    private static boolean hasForbiddenChar(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return true;
            }
        }
        return false;
    }

    /**
     * Outcome of a lookup.
     *
     * @param status             HTTP status: 200, or the error to answer
     * @param file               the file for 200, else null
     * @param size               its size when resolved
     * @param lastModifiedMillis its modification time
     * @param detail             why it is an error (for the log)
     */
    record FileLookup(int status, Path file, long size, long lastModifiedMillis, String detail) {
        /** Internal status: the path is a directory (not an HTTP status). */
        static final int DIRECTORY = -1;

        static FileLookup error(int status, String detail) {
            return new FileLookup(status, null, 0, 0, detail);
        }
    }
}
