package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The consumer build {@code src/it/readme-echo} (run by the Maven Invoker plugin) compiles and runs the README's
 * code and dependency block: these checks keep its copies equal to the README, so that what the README shows is
 * what the build proved.
 */
class ReadmeConsumerCopyTest {

    /** Surefire runs in the module's directory. */
    private static final Path ROOT = Path.of("..");
    private static final Path CONSUMER = Path.of("src", "it", "readme-echo");

    @Test
    void theServiceOfFifteenLinesIsCopiedVerbatim() throws IOException {
        assertContains(block("## A service in 15 lines", "java"), read(CONSUMER.resolve("src/main/java/Echo.java")));
    }

    @Test
    void theAcceptorAndMainAreCopiedVerbatim() throws IOException {
        assertContains(block("## Use it in your project", "java"),
                read(CONSUMER.resolve("src/main/java/EchoMain.java")));
    }

    @Test
    void theDependencyBlockIsCopiedWithTheProjectsVersion() throws IOException {
        Matcher parent = Pattern.compile("<artifactId>proactor-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(read(ROOT.resolve("pom.xml")));
        assertTrue(parent.find(), "no version in the parent pom");
        String version = parent.group(1);
        String readme = block("## Use it in your project", "xml");
        assertTrue(readme.contains("<version>" + version + "</version>"), "the README's block is not at " + version);
        String pom = read(CONSUMER.resolve("pom.xml")).replace("@project.version@", version);
        List<String> wanted = trimmedLines(readme);
        assertTrue(Collections.indexOfSubList(trimmedLines(pom), wanted) >= 0,
                "the README's dependency block (indentation aside) is not in " + CONSUMER.resolve("pom.xml"));
    }

    /** The first fenced block of {@code language} in the README section that starts with {@code heading}. */
    private static String block(String heading, String language) throws IOException {
        String readme = read(ROOT.resolve("README.md"));
        int start = readme.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, "no section '" + heading + "' in README.md");
        int end = readme.indexOf("\n## ", start + 1);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        Matcher m = Pattern.compile("\n```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertTrue(m.find(), "no " + language + " block under '" + heading + "'");
        return m.group(1);
    }

    private static void assertContains(String block, String file) {
        assertTrue(file.contains(block), () -> "the consumer's copy differs from the README's block:\n" + block);
        assertEquals(1, file.split(Pattern.quote(block), -1).length - 1, "the block is in the copy once");
    }

    private static List<String> trimmedLines(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
