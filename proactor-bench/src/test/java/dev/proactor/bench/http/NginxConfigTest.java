package dev.proactor.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NginxConfigTest {

    @Test
    void writesAMinimalForegroundConfiguration(@TempDir Path dir) throws IOException {
        NginxBinary nginx = NginxBinary.parse(Path.of("/usr/sbin/nginx"),
                "nginx version: nginx/1.22.1\nconfigure arguments: --prefix=/x --without-http_uwsgi_module\n");
        assertEquals("nginx/1.22.1", nginx.version());
        Path conf = NginxConfig.write(nginx, dir.resolve("n.conf"), dir, "127.0.0.1", 8080, Path.of("/srv/root"), 1,
                50);
        String text = Files.readString(conf);
        assertTrue(text.contains("daemon off;\n"), text);
        assertTrue(text.contains("worker_processes 1;\n"), text);
        assertTrue(text.contains("access_log off;\n"), text);
        assertTrue(text.contains("sendfile on;\n"), text);
        assertTrue(text.contains("listen 127.0.0.1:8080;\n"), text);
        assertTrue(text.contains("root /srv/root;\n"), text);
        assertTrue(text.contains("proxy_temp_path " + dir.resolve("proxy")), text);
        assertFalse(text.contains("uwsgi_temp_path"), text);
    }
}
