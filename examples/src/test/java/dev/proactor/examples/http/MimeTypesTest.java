package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MimeTypesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "index.html        | text/html; charset=utf-8",
        "INDEX.HTM         | text/html; charset=utf-8",
        "app.min.js        | text/javascript; charset=utf-8",
        "style.css         | text/css; charset=utf-8",
        "logo.PNG          | image/png",
        "photo.jpeg        | image/jpeg",
        "data.json         | application/json",
        "archive.tar.gz    | application/gzip",
        "notes.txt         | text/plain; charset=utf-8",
        "font.woff2        | font/woff2",
        "Makefile          | application/octet-stream",
        ".profile          | application/octet-stream",
        "trailing.         | application/octet-stream",
        "binary.xyz        | application/octet-stream",
    })
    void mapsExtensions(String name, String type) {
        assertEquals(type, MimeTypes.forFileName(name));
    }
}
