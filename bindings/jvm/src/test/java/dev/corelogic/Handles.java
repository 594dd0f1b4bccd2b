package dev.corelogic;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicLong;

/** Reads a system's raw handle, for tests of freed and foreign handles. */
final class Handles {
    private Handles() {}

    static long of(System system) throws ReflectiveOperationException {
        Field handle = System.class.getDeclaredField("handle");
        handle.setAccessible(true);
        Object holder = handle.get(system);
        Field value = holder.getClass().getDeclaredField("value");
        value.setAccessible(true);
        return ((AtomicLong) value.get(holder)).get();
    }
}
