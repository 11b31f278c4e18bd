package dev.proactor.bench.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * Fetches a file once before it is measured and compares the response with the file, so that a
 * misconfigured server (404s, a wrong root, a truncated body) is a failed run, not a fast one.
 */
final class ResponseCheck {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();

    /**
     * GETs the URL and compares status, Content-Length and body.
     *
     * @param url      the file's URL
     * @param expected the file's content
     * @return empty when the response is right, else what is wrong
     * @throws InterruptedException when interrupted
     */
    Optional<String> verify(String url, byte[] expected) throws InterruptedException {
        HttpResponse<byte[]> response;
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build();
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            return Optional.of("GET " + url + " failed: " + e);
        }
        if (response.statusCode() != 200) {
            return Optional.of("GET " + url + " answered " + response.statusCode() + " instead of 200");
        }
        String length = response.headers().firstValue("content-length").orElse("(none)");
        if (!length.equals(Integer.toString(expected.length))) {
            return Optional.of("GET " + url + " has Content-Length " + length + ", the file has " + expected.length
                    + " bytes");
        }
        if (!Arrays.equals(response.body(), expected)) {
            return Optional.of("GET " + url + " returned a body different from the file");
        }
        return Optional.empty();
    }
}
