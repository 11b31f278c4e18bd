package dev.proactor.bench.server.http;

import java.util.Locale;
import java.util.Map;

/** Content types by file-name extension; anything else is {@code application/octet-stream}. */
final class ContentTypes {
    private static final String DEFAULT = "application/octet-stream";
    private static final Map<String, String> BY_EXTENSION = Map.of(
            "html", "text/html; charset=utf-8",
            "txt", "text/plain; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "json", "application/json",
            "png", "image/png",
            "jpg", "image/jpeg",
            "svg", "image/svg+xml");

    private ContentTypes() {
    }

    /**
     * The content type of a file.
     *
     * @param fileName the file name
     * @return its type by extension
     */
    static String of(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot <= 0 || dot == fileName.length() - 1) {
            return DEFAULT;
        }
        return BY_EXTENSION.getOrDefault(fileName.substring(dot + 1).toLowerCase(Locale.ROOT), DEFAULT);
    }
}
