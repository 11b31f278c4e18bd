package dev.proactor.testengine;

import dev.proactor.conformance.EngineUnderTest;
import dev.proactor.conformance.FileConformanceTest;

/**
 * The file conformance suite on an engine with no I/O of its own, so only the built-in file engine on its dedicated
 * secondary processor does the work. With one shared pool thread, that thread sits in the manual engine's wait: file
 * completions are then dispatched only because the dedicated leader interrupts it.
 */
@EngineUnderTest(ManualEngineProvider.NAME)
class ManualEngineFileConformanceTest extends FileConformanceTest {
}
