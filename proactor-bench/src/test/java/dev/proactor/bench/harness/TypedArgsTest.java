package dev.proactor.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

class TypedArgsTest {

    @Command(name = "demo")
    static final class Demo implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = "--runs")
        int runs;
        String[] recorded;

        @Override
        public Integer call() {
            recorded = TypedArgs.afterName(spec);
            return 0;
        }
    }

    @Command(name = "tool", subcommands = Demo.class)
    static final class Tool {
    }

    @Test
    void aSubcommandRecordsItsArgumentsWithoutItsName() {
        CommandLine tool = new CommandLine(new Tool());
        tool.execute("demo", "--runs", "3");
        Demo demo = tool.getSubcommands().get("demo").getCommand();
        assertArrayEquals(new String[] {"--runs", "3"}, demo.recorded);
    }

    @Test
    void aCommandParsedOnItsOwnRecordsEveryArgument() {
        Demo demo = new Demo();
        new CommandLine(demo).execute("--runs", "3");
        assertArrayEquals(new String[] {"--runs", "3"}, demo.recorded);
    }
}
