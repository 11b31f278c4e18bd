package dev.proactor.bench.harness;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** The context lines every benchmark report starts with: when and on which host, which machine. */
public final class ContextLines {
    private ContextLines() {
    }

    /**
     * The date line.
     *
     * @return {@code date: ISO-TIME, host: NAME}
     */
    public static String date() {
        return "date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                + ", host: " + MachineInfo.hostname();
    }

    /**
     * The machine line.
     *
     * @return {@code machine: N CPUs (MODEL), OS VERSION}
     */
    public static String machine() {
        return "machine: " + Runtime.getRuntime().availableProcessors() + " CPUs (" + MachineInfo.cpuModel() + "), "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }
}
