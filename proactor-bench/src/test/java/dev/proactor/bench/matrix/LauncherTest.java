package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.RepoLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.bench.harness.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LauncherTest {

    private static List<String> command(String server) throws UsageException {
        RepoLayout layout = RepoLayout.detect();
        MatrixOptions options = MatrixOptions.parse(new String[] {"--quick", "--servers", server}, layout);
        Launcher launcher = new Launcher(options, layout, false);
        ServerDefinition definition = ServerCatalog.select(List.of(server)).get(0);
        return launcher.serverCommand(definition, options.rows().get(0), 7000);
    }

    @Test
    void theNio2ProviderRowsRunTheUnchangedJdkProgramWithOnlyPropertiesAdded() throws UsageException {
        List<String> jdk = command("jdk-nio2");
        List<String> ours = command("nio2-on-proactor-io_uring");
        assertTrue(ours.contains("-Djava.nio.channels.spi.AsynchronousChannelProvider="
                + "dev.proactor.nio2.ProactorAsynchronousChannelProvider"), ours.toString());
        assertTrue(ours.contains("-Dproactor.engine=io_uring"), ours.toString());
        List<String> withoutProperties = ours.stream().filter(a -> !a.startsWith("-Djava.nio.channels.spi.")
                && !a.startsWith("-Dproactor.engine=")).toList();
        assertEquals(jdk, withoutProperties, "same program and arguments as the jdk-nio2 row");
    }

    @Test
    void everyEngineHasAProviderRow() throws UsageException {
        for (String engine : List.of("nio", "epoll", "io_uring", "linux-aio")) {
            assertTrue(command("nio2-on-proactor-" + engine).contains("jdk-nio2"), engine);
        }
    }

    @Test
    void theHeapRowsPassTheEchoServerItsHeapOptionAndDifferOnlyInTheMultishotSwitch() throws UsageException {
        List<String> heap = command("proactor-io_uring-heap");
        List<String> single = command("proactor-io_uring-heap-singleshot");
        assertEquals("--heap", heap.get(heap.indexOf("echo-server") + 1), heap.toString());
        assertTrue(heap.contains("-Dproactor.uring.multishotRecv=heap"), heap.toString());
        assertTrue(single.contains("-Dproactor.uring.multishotRecv=off"), single.toString());
        assertEquals(heap.stream().filter(a -> !a.startsWith("-Dproactor.uring.multishotRecv=")).toList(),
                single.stream().filter(a -> !a.startsWith("-Dproactor.uring.multishotRecv=")).toList());
    }
}
