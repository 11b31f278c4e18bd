package dev.proactor.toolkit;

/** Makes the {@link Service} of a new connection; called on a demultiplexor thread, once per connection. */
@FunctionalInterface
public interface ServiceFactory {

    /** A new service; must not return null. */
    Service newService() throws Exception;
}
