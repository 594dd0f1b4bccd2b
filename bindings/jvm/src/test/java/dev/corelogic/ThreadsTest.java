package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One system shared by a thread pool; native handles freed by close() or by the cleaner. */
class ThreadsTest {
    @Test
    void aThreadPoolSharesOneSystemAndNoIncrementIsLost() throws Exception {
        int threads = 8;
        int calls = 2000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (System counter = new System("counter")) {
            AtomicInteger commands = new AtomicInteger();
            counter.onState(state -> commands.incrementAndGet());
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < calls; i++) counter.send("increment");
                    return null;
                }));
            }
            for (Future<?> future : futures) future.get(60, TimeUnit.SECONDS);
            assertEquals((long) threads * calls, counter.state().get("count"));
            assertEquals(threads * calls, commands.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closingWhileOtherThreadsCallOnlyGivesHandleExceptions() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 20; round++) {
                System counter = new System("counter");
                CountDownLatch running = new CountDownLatch(4);
                List<Future<Integer>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    futures.add(pool.submit(() -> {
                        running.countDown();
                        int sent = 0;
                        try {
                            while (true) {
                                counter.send("increment");
                                sent++;
                            }
                        } catch (HandleException closed) {
                            return sent;
                        }
                    }));
                }
                running.await();
                counter.close();
                for (Future<Integer> future : futures) assertTrue(future.get(30, TimeUnit.SECONDS) >= 0);
                assertThrows(HandleException.class, () -> counter.send("increment"));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anUnreachableSystemIsFreedByTheCleaner() throws Exception {
        long handle = openAndDrop();
        long deadline = java.lang.System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            java.lang.System.gc();
            try {
                Native.state(handle);
            } catch (HandleException freed) {
                return;
            }
            assertTrue(java.lang.System.nanoTime() < deadline, "the cleaner did not free the handle");
            Thread.sleep(20);
        }
    }

    private static long openAndDrop() throws Exception {
        System counter = new System("counter");
        counter.send("increment");
        return Handles.of(counter);
    }
}
