package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StaticFileResolverTest {

    @TempDir
    Path tmp;
    private Path root;
    private StaticFileResolver resolver;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "secret");
        Files.writeString(tmp.resolve("secret"), "secret");
        Files.writeString(root.resolve("a.txt"), "hello");
        Files.setLastModifiedTime(root.resolve("a.txt"), FileTime.fromMillis(784111777_000L));
        Files.writeString(root.resolve("\u20ac.txt"), "euro");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/index.html"), "<p>index</p>");
        Files.writeString(root.resolve("sub/page.css"), "p{}");
        Files.createDirectories(root.resolve("empty"));
        Files.createSymbolicLink(root.resolve("link-out"), outside.resolve("secret"));
        Files.createSymbolicLink(root.resolve("link-dir-out"), outside);
        Files.createSymbolicLink(root.resolve("link-in"), root.resolve("sub/page.css"));
        Files.createDirectories(root.resolve("escaping-index"));
        Files.createSymbolicLink(root.resolve("escaping-index/index.html"), outside.resolve("secret"));
        resolver = new StaticFileResolver(root);
    }

    private StaticFileResolver.Resolution resolve(String target) {
        return resolver.resolve(target);
    }

    @Test
    void resolvesAFileWithItsAttributes() throws IOException {
        StaticFileResolver.Resolution r = resolve("/a.txt?download=1");
        assertEquals(200, r.status());
        assertEquals(root.toRealPath().resolve("a.txt"), r.file());
        assertEquals(5, r.size());
        assertEquals(784111777_000L, r.lastModifiedMillis());
        assertEquals("text/plain; charset=utf-8", r.contentType());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a.txt", "//a.txt", "/./a.txt", "/%61.txt",
        "http://example/a.txt", "HTTPS://example:8443/a.txt?q", "/%E2%82%AC.txt", "/link-in",
        "/sub/", "/sub/index.html"})
    void servesPathsInsideTheRoot(String target) {
        assertEquals(200, resolve(target).status(), target);
    }

    @Test
    void servesIndexHtmlForDirectoriesAndRefusesDirectoriesWithoutOne() {
        StaticFileResolver.Resolution r = resolve("/sub/");
        assertEquals("text/html; charset=utf-8", r.contentType());
        assertEquals(12, r.size());
        assertEquals(403, resolve("/empty/").status());
        assertEquals(301, resolve("/empty").status(), "a directory without its slash: redirected first");
        assertEquals(403, resolve("/").status(), "the root has no index.html");
        assertEquals(403, resolve("http://example").status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/missing", "/a.txt/", "/a.txt/x", "/sub/missing.html", "/sub/missing.html/x"})
    void answers404ForMissingFiles(String target) {
        assertEquals(404, resolve(target).status(), target);
    }

    @Test
    void answers404ForNamesTooLongForTheFileSystem() {
        assertEquals(404, resolve("/" + "n".repeat(300)).status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/link-out", "/link-dir-out/secret", "/link-dir-out/", "/escaping-index/"})
    void neverFollowsSymbolicLinksOutOfTheRoot(String target) {
        assertEquals(404, resolve(target).status(), target);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/../secret", "/sub/../../secret", "/..", "/%2e%2e/secret", "/%2E%2E/secret", "/.%2e/secret",
        "/%2e%2e%2fsecret", "/..%2fsecret", "/sub%2f..%2f..%2fsecret", "/a.txt%00", "/a%00.txt",
        "/a%5c..%5csecret", "/a\\..\\secret", "/%5c", "/%zz", "/%4", "/%", "/%C3%28", "/%ff", "/a%0a",
        "/a%7f", "*", "example.com/a.txt", "ftp://example/a.txt", "/a.txt#frag", "",
    })
    void rejectsEscapesAndMalformedPathsWith400(String target) {
        assertEquals(400, resolve(target).status(), target);
    }

    @Test
    void refusesUnreadableFiles() throws IOException {
        Path f = Files.writeString(root.resolve("private.txt"), "x");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("---------"));
        assumeFalse(Files.isReadable(f), "running as a user that reads everything (root)");
        assertEquals(403, resolve("/private.txt").status());
    }

    @Test
    void requiresADirectoryAsRoot() {
        assertThrows(IllegalArgumentException.class, () -> new StaticFileResolver(root.resolve("a.txt")));
        assertThrows(IOException.class, () -> new StaticFileResolver(root.resolve("nope")));
    }

    @Test
    void redirectsADirectoryNamedWithoutItsTrailingSlash() {
        StaticFileResolver.Resolution r = resolve("/sub");
        assertEquals(301, r.status());
        assertEquals("/sub/", r.location());
        assertEquals("/sub/?a=1", resolve("/sub?a=1").location());
        assertEquals("/sub/", resolve("http://example/sub").location());
    }
}
