/** A consumer on the module path: it requires the core only; the engines come in by service binding. */
module consumer.jpms {
    requires dev.proactor.core;
}
