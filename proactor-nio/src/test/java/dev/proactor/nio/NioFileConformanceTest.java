package dev.proactor.nio;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.FileConformanceTest;

/** The file conformance suite with the emulated engine (files run on the built-in file engine). */
@EngineUnderTest(NioEngineProvider.NAME)
class NioFileConformanceTest extends FileConformanceTest {
}
