/** The emulated proactor engine over java.nio selectors. */
module dev.proactor.nio {
    requires transitive dev.proactor.core;

    exports dev.proactor.nio;

    provides dev.proactor.spi.EngineProvider with dev.proactor.nio.NioEngineProvider;
}
