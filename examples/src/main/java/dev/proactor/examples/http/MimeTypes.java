package dev.proactor.examples.http;

import java.util.Map;

/**
 * Content types by file-name extension: a small built-in table of the types a static site usually serves.
 * Unknown or missing extensions get {@value #DEFAULT}, which tells a browser to download rather than render:
 * the safe choice for bytes of unknown kind. Text types carry {@code charset=utf-8}.
 */
final class MimeTypes {

    /** The type of files whose extension is not in the table. */
    static final String DEFAULT = "application/octet-stream";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("md", "text/markdown; charset=utf-8"),
            Map.entry("csv", "text/csv; charset=utf-8"),
            Map.entry("xml", "application/xml"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("avif", "image/avif"),
            Map.entry("ico", "image/vnd.microsoft.icon"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("wasm", "application/wasm"),
            Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"),
            Map.entry("tar", "application/x-tar"),
            Map.entry("mp3", "audio/mpeg"),
            Map.entry("wav", "audio/wav"),
            Map.entry("ogg", "audio/ogg"),
            Map.entry("mp4", "video/mp4"),
            Map.entry("webm", "video/webm"),
            Map.entry("woff", "font/woff"),
            Map.entry("woff2", "font/woff2"),
            Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"));

    private MimeTypes() {
    }

    /**
     * The content type for a file name: looked up by the text after the last dot, ignoring case. A name
     * without a dot, or that starts with its only dot ({@code .profile}), has no extension.
     */
    static String forFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot <= 0 || dot == fileName.length() - 1) {
            return DEFAULT;
        }
        String ext = fileName.substring(dot + 1);
        String type = BY_EXTENSION.get(ext);
        if (type == null) {
            type = BY_EXTENSION.getOrDefault(ext.toLowerCase(java.util.Locale.ROOT), DEFAULT);
        }
        return type;
    }
}
