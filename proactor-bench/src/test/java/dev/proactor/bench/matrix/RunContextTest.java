package dev.proactor.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RunContextTest {

    @Test
    void quotesArgumentsAShellWouldSplit() {
        assertEquals("--runs 3 --note 'mvn test ran; it'\\''s noisy' --disturbed",
                RunContext.commandLine(new String[] {"--runs", "3", "--note", "mvn test ran; it's noisy", "--disturbed"}));
    }
}
