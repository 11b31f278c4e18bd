package dev.proactor.bench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentRootTest {
    @TempDir
    Path dir;
    private DocumentRoot root;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(dir.resolve("a.bin"), "abc");
        Files.createDirectories(dir.resolve("site"));
        Files.writeString(dir.resolve("site").resolve("index.html"), "<p>");
        Files.createDirectories(dir.resolve("empty"));
        root = new DocumentRoot(dir.toAbsolutePath().normalize());
    }

    @Test
    void findsRegularFiles() {
        DocumentRoot.FileLookup found = root.lookup("/a.bin");
        assertEquals(200, found.status());
        assertEquals(3, found.size());
        assertEquals(dir.resolve("a.bin"), found.file());
    }

    @Test
    void servesTheIndexOfADirectory() {
        assertEquals(dir.resolve("site").resolve("index.html"), root.lookup("/site/").file());
        assertEquals(403, root.lookup("/empty").status());
    }

    @Test
    void refusesToLeaveTheRoot() {
        assertEquals(400, root.lookup("/../a.bin").status());
        assertEquals(400, root.lookup("/site/../../etc/passwd").status());
        assertEquals(400, root.lookup("/./a.bin").status());
        assertEquals(400, root.lookup("/a\\b").status());
        assertEquals(400, root.lookup("a.bin").status());
    }

    @Test
    void answersMissingFilesWith404() {
        assertEquals(404, root.lookup("/nope").status());
        assertEquals(404, root.lookup("/a.bin/x").status());
    }
}
