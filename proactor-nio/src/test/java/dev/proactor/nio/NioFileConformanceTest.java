package dev.proactor.nio;

import dev.proactor.ProactorConfig;
import dev.proactor.conformance.ConformanceMatrix;
import dev.proactor.conformance.FileConformanceTest;
import java.util.stream.Stream;

/**
 * The file conformance suite with the emulated engine (files run on the built-in file engine), every wait
 * strategy, thread count and leader mode.
 */
class NioFileConformanceTest extends FileConformanceTest {

    static Stream<ProactorConfig> configurations() {
        return ConformanceMatrix.of(NioEngineProvider.NAME);
    }
}
