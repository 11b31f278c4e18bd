/** Proactor core: the user API and the engine SPI. Engines are found with {@link java.util.ServiceLoader}. */
module dev.proactor.core {
    requires transitive org.slf4j;
    requires jdk.jfr;
    requires jdk.net;

    exports dev.proactor;
    exports dev.proactor.nio2;
    exports dev.proactor.spi;
    exports dev.proactor.tls;
    exports dev.proactor.toolkit;

    uses dev.proactor.spi.EngineProvider;
}
